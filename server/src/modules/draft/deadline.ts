import type { AppDeps } from '../../deps.js';
import { DomainError } from '../../errors.js';
import { readDraftState } from './draft.repository.js';
import { startDraft } from './draft.service.js';

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Starts the draft by itself when the configured deadline passes (server clock, no request needed), so
 * picks lock at that moment and every open page hears `auto_start`. Several instances may race: the
 * locked state row lets exactly one of them record the start.
 */
export function startDeadlineWatcher(deps: Pick<AppDeps, 'orm' | 'draft' | 'log'>): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const fire = async () => {
    if (stopped) return;
    const em = deps.orm.em.fork();
    try {
      const state = await readDraftState(em);
      if (!state.startedAt) await startDraft(em, deps.draft, 'deadline', 'auto_start');
    } catch (error) {
      if (!(error instanceof DomainError)) {
        deps.log.warn({ err: (error as Error).message }, 'automatic draft start failed; retrying in 5 s');
        timer = setTimeout(() => void fire(), 5000);
        timer.unref();
      }
    }
  };

  const schedule = () => {
    if (stopped) return;
    const wait = deps.draft.deadline.getTime() - deps.draft.now().getTime();
    if (wait <= 0) return void fire();
    // setTimeout caps at ~24.8 days: wake up and re-measure for deadlines further away.
    timer = setTimeout(() => (wait > MAX_TIMER_MS ? schedule() : void fire()), Math.min(wait, MAX_TIMER_MS));
    timer.unref();
  };
  schedule();

  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
