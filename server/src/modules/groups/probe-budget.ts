import { MESSAGES } from '@first-round/shared/messages';
import { DomainError, tooManyRequests } from '../../errors.js';

/**
 * Private group ids are 8 random digits, and every call that takes one answers "no such group" for an id
 * the caller may not know of (membership.ts, `refusalForNonMember`). What is left to an attacker is trying
 * ids until one answers otherwise; this budget makes that slow. Each address may be answered 'Group not
 * found' `limit` times per window (GROUP_PROBE_LIMIT per GROUP_PROBE_WINDOW_SECONDS); past that, such
 * answers become 429 with Retry-After until the window ends.
 *
 * Only answers that would have been 'Group not found' are refused, never a group the caller may see: a
 * member behind a crowded address (a draft party on one network) keeps reading their groups. A prober over
 * budget learns nothing either way, since a private group they are not in answers exactly as none.
 *
 * Kept in memory per instance, like the identity routes' per-address limit: the window is fixed (it
 * starts at an address's first not-found answer), which costs one map entry per address that probed.
 */
export class GroupProbeBudget {
  readonly #spent = new Map<string, { since: number; count: number }>();
  #lastSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts one 'Group not found' answer to `address`; returns the seconds to wait when that answer is past
   * the budget, else undefined.
   */
  spend(address: string): number | undefined {
    const now = this.now();
    this.#sweep(now);
    let entry = this.#spent.get(address);
    if (!entry || now - entry.since >= this.windowMs) this.#spent.set(address, (entry = { since: now, count: 0 }));
    entry.count++;
    if (entry.count <= this.limit) return undefined;
    return Math.max(1, Math.ceil((entry.since + this.windowMs - now) / 1000));
  }

  /** Forgets addresses whose window has passed, at most once a window (they would start afresh anyway). */
  #sweep(now: number) {
    if (now - this.#lastSweep < this.windowMs) return;
    this.#lastSweep = now;
    for (const [address, entry] of this.#spent) if (now - entry.since >= this.windowMs) this.#spent.delete(address);
  }
}

const isGroupNotFound = (error: unknown) => error instanceof DomainError && error.kind === 'NOT_FOUND' && error.message === MESSAGES.groupNotFound;

/**
 * The answer to give instead of `error`: a 'Group not found' past the address's budget becomes 429 (with
 * its wait, for the Retry-After header); anything else is answered as it is. Every transport calls this
 * where a procedure's error leaves it (trpc.ts's first middleware, the hot reads' runner).
 */
export function spendOnGroupNotFound(budget: GroupProbeBudget, address: string, error: unknown): unknown {
  if (!isGroupNotFound(error)) return error;
  const wait = budget.spend(address);
  return wait === undefined ? error : tooManyRequests(MESSAGES.tooManyGroupProbes(wait), undefined, wait);
}
