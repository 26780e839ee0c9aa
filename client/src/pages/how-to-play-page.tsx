import { Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { Card, Page } from '../components/page';
import { RulesList } from '../components/rules';
import { BoardYearNote } from '../components/board-year-note';
import { PrimaryButton } from '../components/buttons';
import { formatWhen } from '@first-round/shared/deadline';
import { useDraftStatus } from '../lib/queries';


export function HowToPlayPage() {
  const draft = useDraftStatus();
  return (
    <Page title="How to Win the NFL Draft Game" subtitle="Pick the players you think will be drafted in round one. No mistakes allowed.">
      <Stack gap="5">
        <Card>
          <RulesList />
        </Card>
        <Card bg="navy.900" color="white" borderColor="navy.900">
          <Text fontSize="sm" textTransform="uppercase" letterSpacing="wider" color="gold.400" fontWeight="bold">
            Submission deadline
          </Text>
          <Text fontSize="lg" fontWeight="bold">
            {draft.data ? formatWhen(draft.data.deadline, undefined, { year: true }) : '…'}
          </Text>
          <Text fontSize="sm" color="navy.100">
            Picks lock when the draft starts. Until then you can change them as often as you like.
          </Text>
          <BoardYearNote onDark />
        </Card>
        <PrimaryButton asChild bg="gold.400" color="navy.900" _hover={{ bg: 'gold.500' }}>
          <Link to="/select-players">Start Making Picks</Link>
        </PrimaryButton>
      </Stack>
    </Page>
  );
}
