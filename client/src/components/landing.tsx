import { Box, Button, Flex, Grid, Stack, Text } from '@chakra-ui/react';
import { formatWhen } from '@first-round/shared/deadline';
import { STALE_TIMES } from '@first-round/shared/constants';
import { trpc } from '../lib/trpc';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** '302 entries · 25 groups': the game's size right now (counted by the server at most once a minute). */
export function LiveCounts() {
  const counts = trpc.groups.publicCounts.useQuery(undefined, { staleTime: 60_000, retry: false });
  // A brand-new site says nothing rather than '0 entries · 0 groups'.
  if (!counts.data || counts.data.entries + counts.data.groups === 0) return null;
  const { entries, groups } = counts.data;
  return (
    <Flex align="center" gap="2" color="white" fontWeight="bold" aria-label="Live counts" role="group">
      <Box w="2.5" h="2.5" borderRadius="full" bg="turf.500" boxShadow="0 0 0 4px rgba(31,157,85,0.3)" aria-hidden />
      <Text data-testid="live-counts">
        {plural(entries, 'entry', 'entries')} · {plural(groups, 'group', 'groups')}
      </Text>
    </Flex>
  );
}

const STEPS = [
  { n: '1', word: 'Pick', text: 'Choose the players you think go in round one: 1 to 32 of them.' },
  { n: '2', word: 'Lock', text: 'Picks lock when the draft starts. Change them as often as you like until then.' },
  { n: '3', word: 'Survive', text: 'Every pick drafted in round one scores a point. One miss and the entry is out.' },
] as const;

const EXAMPLE = [
  { hit: true, name: 'Cam Ward', detail: 'QB · Miami', result: 'Pick 1' },
  { hit: true, name: 'Travis Hunter', detail: 'CB/WR · Colorado', result: 'Pick 2' },
  { hit: true, name: 'Ashton Jeanty', detail: 'RB · Boise State', result: 'Pick 6' },
  { hit: false, name: 'Shedeur Sanders', detail: 'QB · Colorado', result: 'Not in round one' },
] as const;

/** An entry on draft night: three hits, then the miss that zeroes it. */
function ExampleEntry() {
  return (
    <Box bg="white" borderRadius="xl" boxShadow="lg" overflow="hidden" aria-label="Example entry" role="group">
      <Flex bg="navy.950" color="white" px="4" py="2" justify="space-between" align="center">
        <Text fontSize="xs" fontWeight="black" letterSpacing="widest" textTransform="uppercase">
          Example entry
        </Text>
        <Text fontSize="xs" fontWeight="bold" bg="red.600" px="2" py="0.5" borderRadius="sm">
          BUSTED · 0 points
        </Text>
      </Flex>
      <Stack as="ul" listStyleType="none" gap="0" divideY="1px" divideColor="gray.100">
        {EXAMPLE.map((row) => (
          <Flex as="li" key={row.name} px="4" py="2" align="center" gap="3" bg={row.hit ? 'white' : 'red.50'}>
            <Flex
              w="7"
              h="7"
              borderRadius="full"
              align="center"
              justify="center"
              fontWeight="black"
              color="white"
              bg={row.hit ? 'turf.700' : 'red.600'}
              flexShrink={0}
              role="img"
              aria-label={row.hit ? 'Drafted in round one' : 'Not drafted in round one'}
            >
              {row.hit ? '✓' : '✗'}
            </Flex>
            <Box flex="1" minW="0">
              <Text fontWeight="bold" color="navy.900" fontSize="sm">
                {row.name}
              </Text>
              <Text color="gray.600" fontSize="xs">
                {row.detail}
              </Text>
            </Box>
            <Text fontSize="xs" fontWeight="bold" color={row.hit ? 'turf.700' : 'red.700'} textAlign="right">
              {row.result}
            </Text>
          </Flex>
        ))}
      </Stack>
      <Text px="4" py="2" fontSize="xs" color="gray.700" bg="gray.50">
        Three hits, then a miss: the whole entry scores zero. Pick only the players you are sure of.
      </Text>
    </Box>
  );
}

/** The landing's pitch for signed-out visitors on /sign-up: the headline, Pick · Lock · Survive, an example, the counts. */
export function LandingPitch() {
  const status = trpc.draft.status.useQuery(undefined, { staleTime: STALE_TIMES.draftStatus });
  return (
    <Stack gap="6" color="white" as="section" aria-label="How First Round works">
      <Stack gap="3">
        <Text fontSize="xs" fontWeight="black" letterSpacing="widest" textTransform="uppercase" color="gold.400">
          The NFL Draft pick'em
        </Text>
        <Text as="p" fontSize={{ base: '3xl', md: '5xl' }} fontWeight="black" lineHeight="1.05" letterSpacing="tight">
          Call round one. Survive draft night.
        </Text>
        <Text color="navy.100" fontSize={{ base: 'md', md: 'lg' }} maxW="xl">
          Pick who goes in round one, then watch every pick land live with your friends.
          {status.data && !status.data.draftHasStarted && ` Picks lock ${formatWhen(status.data.deadline)}.`}
        </Text>
        <LiveCounts />
        {/* On a phone the pitch stands above the form: the way to it comes first, above the fold. */}
        <Button
          display={{ base: 'inline-flex', lg: 'none' }}
          alignSelf="flex-start"
          size="lg"
          bg="gold.400"
          color="navy.900"
          fontWeight="black"
          _hover={{ bg: 'gold.500' }}
          onClick={() => {
            document.getElementById('auth-form')?.scrollIntoView({ block: 'start' });
            document.querySelector<HTMLInputElement>('#auth-form input')?.focus({ preventScroll: true });
          }}
        >
          Get started
        </Button>
      </Stack>
      <Grid as="ol" listStyleType="none" templateColumns={{ base: '1fr', md: 'repeat(3, 1fr)' }} gap="3" aria-label="How to play">
        {STEPS.map((step) => (
          <Box as="li" key={step.word} bg="whiteAlpha.100" borderRadius="xl" p="4" borderWidth="1px" borderColor="whiteAlpha.200">
            <Flex align="baseline" gap="2" mb="1">
              <Text color="gold.400" fontWeight="black" fontSize="2xl" aria-hidden>
                {step.n}
              </Text>
              <Text fontWeight="black" fontSize="xl" textTransform="uppercase" letterSpacing="wide">
                {step.word}
              </Text>
            </Flex>
            <Text color="navy.100" fontSize="sm">
              {step.text}
            </Text>
          </Box>
        ))}
      </Grid>
      <ExampleEntry />
    </Stack>
  );
}
