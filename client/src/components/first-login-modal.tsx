import { lazy, Suspense, useState } from 'react';
import { STALE_TIMES } from '@first-round/shared/constants';
import { trpc } from '../lib/trpc';

const RulesDialog = lazy(async () => ({ default: (await import('./rules-dialog')).RulesDialog }));

/** 'Rules of the Game' on a first login (is_first_login true or null); only its button closes it. */
export function FirstLoginModal() {
  const status = trpc.users.status.useQuery(undefined, { staleTime: STALE_TIMES.userStatus });
  const open = status.isSuccess && status.data.is_first_login !== false;
  // Loaded on the first login only; once shown it stays mounted so that closing animates as before.
  const [needed, setNeeded] = useState(false);
  if (open && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <RulesDialog open={open} />
    </Suspense>
  );
}
