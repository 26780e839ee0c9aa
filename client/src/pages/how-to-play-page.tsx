import { Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { Card, Page } from '../components/page';
import { RulesList } from '../components/rules';
import { BoardYearNote } from '../components/board-year-note';
import { PrimaryButton } from '../components/buttons';
import { formatWhen } from '@first-round/shared/deadline';
import type { DraftPhase } from '../lib/draft-phase';
import { useDraftPhase, useDraftStatus } from '../lib/queries';

/** The card under the rules and its one call, by where the draft is: the deadline before, then what is on now. */
const NEXT: Record<DraftPhase, { label: string; note: string; call: string; to: string }> = {
  before: { label: 'Submission deadline', note: 'Picks lock when the draft starts. Until then you can change them as often as you like.', call: 'Start Making Picks', to: '/select-players' },
  live: { label: 'Picks are locked', note: 'The draft is on: follow your picks as round one runs.', call: 'Follow My Picks', to: '/my-picks' },
  final: { label: 'Round one is complete', note: 'Every pick is decided: the standings are final.', call: 'See the final standings', to: '/leaderboard' },
};

export function HowToPlayPage() {
  const draft = useDraftStatus();
  const phase = useDraftPhase();
  const next = phase ? NEXT[phase] : null;
  return (
    <Page title="How to Win the NFL Draft Game" subtitle="Pick the players you think will be drafted in round one. No mistakes allowed.">
      <Stack gap="5">
        <Card>
          <RulesList />
        </Card>
        {next && (
          <>
            <Card bg="navy.900" color="white" borderColor="navy.900">
              <Text fontSize="sm" textTransform="uppercase" letterSpacing="wider" color="gold.400" fontWeight="bold">
                {next.label}
              </Text>
              {phase === 'before' && draft.data && (
                <Text fontSize="lg" fontWeight="bold">
                  {formatWhen(draft.data.deadline, undefined, { year: true })}
                </Text>
              )}
              <Text fontSize="sm" color="navy.100">
                {next.note}
              </Text>
              <BoardYearNote onDark />
            </Card>
            <PrimaryButton asChild bg="gold.400" color="navy.900" _hover={{ bg: 'gold.500' }}>
              <Link to={next.to}>{next.call}</Link>
            </PrimaryButton>
          </>
        )}
      </Stack>
    </Page>
  );
}
