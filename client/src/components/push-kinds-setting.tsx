import { MESSAGES } from '@first-round/shared/messages';
import type { PushPreferences } from '@first-round/shared/schemas';
import { CheckboxOption } from './checkbox-option';
import { errorMessage, trpc } from '../lib/trpc';
import { notify } from '../lib/toaster';

const KINDS: { kind: keyof PushPreferences; label: string; hint: string }[] = [
  { kind: 'busted', label: 'Tell me when an entry of mine is busted', hint: 'The pick that leaves an entry of yours no way through round one.' },
  { kind: 'final', label: 'Tell me my final result', hint: "When round one is complete: your best place, such as '2nd of 12 in Sunday Squad'." },
  { kind: 'reminder', label: 'Remind me before picks lock', hint: 'One hour before the lock, when some of your picks are not in yet.' },
];

/**
 * What else the player's devices with notifications on are told, beside their picks taken: one setting per
 * kind, the player's (every device of theirs), all on until switched off (push.preferences).
 */
export function PushKindsSetting() {
  const utils = trpc.useUtils();
  const setting = trpc.push.preferences.useQuery();
  const save = trpc.push.setPreferences.useMutation({
    onSuccess(answer) {
      utils.push.preferences.setData(undefined, answer);
      notify('success', MESSAGES.pushKindsSaved);
    },
    onError(error) {
      notify('error', errorMessage(error, MESSAGES.pushKindsSaveFailed));
    },
  });
  const shown = save.isPending ? save.variables : setting.data;
  return (
    <>
      {KINDS.map(({ kind, label, hint }) => (
        <CheckboxOption
          key={kind}
          id={`push-${kind}`}
          label={label}
          hint={hint}
          checked={shown?.[kind] ?? false}
          disabled={!setting.data || save.isPending}
          onChange={(on) => shown && save.mutate({ ...shown, [kind]: on })}
        />
      ))}
    </>
  );
}
