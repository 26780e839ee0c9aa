import { List } from '@chakra-ui/react';
import { TIEBREAK_RULE } from '@first-round/shared/messages';
import { BUST_RULE } from '@first-round/shared/entry-words';

/** The rules of the game, as first-time users see them (the tie-break in its one wording). */
export const RULES = [
  'Pick between 1 and 32 players you think will be drafted in round one.',
  '1 point per correct pick.',
  'If any pick is not drafted in round one, your score goes to zero: one wrong pick means a loss.',
  BUST_RULE,
  'The most correct picks with no wrong pick wins.',
  TIEBREAK_RULE,
];

export function RulesList() {
  return (
    <List.Root as="ol" gap="3" ps="5" listStyleType="decimal">
      {RULES.map((rule) => (
        <List.Item key={rule} color="gray.700" _marker={{ color: 'navy.600', fontWeight: 'bold' }}>
          {rule}
        </List.Item>
      ))}
    </List.Root>
  );
}
