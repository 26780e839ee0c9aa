import { useEffect, useState, useSyncExternalStore } from 'react';
import { Button, HStack, Text } from '@chakra-ui/react';
import { catchUp, gateState, subscribeGate } from '../lib/hold-gate';
import { delayedText } from '../lib/viewing-delay';
import { useViewingDelay } from './viewing-delay-chooser';

/**
 * "Delayed 45 s · Catch up": says the page runs behind the draft room on purpose, and lets the viewer jump
 * to now (every held pick at once). Nothing while live. While a freshly loaded page holds a change made
 * within the delay it says how long is left, so a page still waiting does not look broken.
 */
export function ViewingDelayBadge({ tv = false }: { tv?: boolean }) {
  const delay = useViewingDelay();
  const gate = useSyncExternalStore(subscribeGate, gateState);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!gate.catchingUp) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [gate.catchingUp]);
  if (delay === 0) return null;
  const left = Math.max(1, Math.ceil((gate.until - now) / 1000));
  return (
    // The words wrap on a narrow phone ("Delayed 45 s · catching up to your TV, 43 s"): Catch up stays on screen.
    <HStack gap="2" bg="yellow.100" color="gray.900" borderRadius="2xl" px="3" py="0.5" fontSize={tv ? '28px' : 'sm'} flexShrink={1} minW="0" maxW="full">
      <Text as="span" fontWeight="semibold" minW="0">
        {delayedText(delay)}
        {gate.catchingUp ? ` · catching up to your TV, ${left} s` : ''}
      </Text>
      <Button size={tv ? 'lg' : '2xs'} fontSize={tv ? '28px' : undefined} variant="outline" bg="white" color="gray.900" borderColor="gray.400" flexShrink={0} onClick={catchUp}>
        Catch up
      </Button>
    </HStack>
  );
}
