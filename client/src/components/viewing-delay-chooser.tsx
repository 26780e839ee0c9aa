import { useId, useState, useSyncExternalStore } from 'react';
import { Field, HStack, Input, NativeSelect } from '@chakra-ui/react';
import { getViewingDelay, MAX_VIEWING_DELAY, parseViewingDelay, setViewingDelay, subscribeViewingDelay, VIEWING_CHOICES } from '../lib/viewing-delay';

/** This device's viewing delay in seconds, re-rendering when it changes (here, in Settings, in another tab). */
export function useViewingDelay(): number {
  return useSyncExternalStore(subscribeViewingDelay, getViewingDelay);
}

const OTHER = 'other';

/**
 * "Watching on": live, TV, a stream, or a number of seconds (lib/viewing-delay.ts). The same chooser on the
 * live pages (components/viewing-delay-bar.tsx), the TV view and Settings. `compact`: one line for the bar;
 * `tv`: read from across a room (the TV view's 28 px floor).
 */
export function ViewingDelayChooser({ compact = false, tv = false }: { compact?: boolean; tv?: boolean }) {
  const delay = useViewingDelay();
  const labelSize = tv ? '28px' : compact ? 'xs' : 'sm';
  const labelColor = compact || tv ? 'white' : undefined;
  const controlSize = compact ? 'xs' : tv ? 'lg' : 'md';
  const tvText = tv ? { fontSize: '28px', h: 'auto', py: '1' } : {};
  const named = VIEWING_CHOICES.some((c) => c.seconds === delay);
  const [other, setOther] = useState(!named);
  const [typed, setTyped] = useState(named ? '' : String(delay));
  const secondsId = useId();
  const showOther = other || !named;
  return (
    <HStack gap="2" wrap="wrap" align="end">
      <Field.Root width="auto">
        <Field.Label fontWeight="semibold" fontSize={labelSize} color={labelColor}>
          Watching on
        </Field.Label>
        <NativeSelect.Root size={controlSize} width="auto">
          <NativeSelect.Field
            {...tvText}
            bg="white"
            color="gray.900"
            value={showOther ? OTHER : String(delay)}
            onChange={(e) => {
              if (e.target.value === OTHER) {
                setOther(true);
                setTyped(String(delay || 30));
                setViewingDelay(delay || 30);
              } else {
                setOther(false);
                setViewingDelay(Number(e.target.value));
              }
            }}
          >
            {VIEWING_CHOICES.map((c) => (
              <option key={c.seconds} value={String(c.seconds)}>
                {c.label}
              </option>
            ))}
            <option value={OTHER}>Another delay (seconds)</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      {showOther && (
        <Field.Root width="auto">
          <Field.Label htmlFor={secondsId} fontWeight="semibold" fontSize={labelSize} color={labelColor}>
            Seconds behind
          </Field.Label>
          <Input
            id={secondsId}
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_VIEWING_DELAY}
            step={1}
            size={controlSize}
            {...tvText}
            width={tv ? '32' : '20'}
            bg="white"
            color="gray.900"
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              if (e.target.value.trim() !== '') setViewingDelay(parseViewingDelay(e.target.value));
            }}
            // What was kept (a whole number within 0–600) once the viewer leaves the field.
            onBlur={() => setTyped(String(getViewingDelay()))}
          />
        </Field.Root>
      )}
    </HStack>
  );
}
