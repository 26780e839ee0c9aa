import { describe, expect, it } from 'vitest';
import { draftClock, groupPasswordProblem, joinDraftState, lateJoinNotice, retryWhen } from './join-words.js';
import { groupPasswordSchema } from './schemas.js';
import { MESSAGES } from './messages.js';

describe('retryWhen', () => {
  const now = new Date('2026-03-05T20:00:31Z');

  it('rounds the minutes up and the clock time up to the minute, so trying at the time shown always works', () => {
    expect(retryWhen('2026-03-05T20:15:30.400Z', now, draftClock)).toEqual({ minutes: 15, clock: '3:16 PM EST' });
    expect(retryWhen('2026-03-05T20:16:00.000Z', now, draftClock)).toEqual({ minutes: 16, clock: '3:16 PM EST' });
  });

  it('never says less than a minute', () => {
    expect(retryWhen(new Date(now.getTime() + 5_000), now, draftClock).minutes).toBe(1);
    expect(retryWhen(new Date(now.getTime() - 5_000), now, draftClock).minutes).toBe(1);
  });

  it('writes the messages from the same numbers, whoever writes the clock', () => {
    const retry = retryWhen('2026-03-05T20:15:30Z', now, () => '8:16 PM');
    expect(MESSAGES.joinLockedOut('group', retry)).toBe('Too many wrong passwords for this group. Try again in 15 minutes (at 8:16 PM), or ask a member for an invite link.');
    expect(MESSAGES.joinLockedOut('player', { minutes: 1, clock: '20:01 UTC' })).toBe(
      'Too many failed attempts to join groups. Try again in 1 minute (at 20:01 UTC), or ask a member for an invite link.',
    );
    expect(MESSAGES.wrongGroupPassword(7)).toBe('Wrong password for this group. 7 tries left.');
    expect(MESSAGES.wrongGroupPassword(1)).toBe('Wrong password for this group. 1 try left.');
    expect(MESSAGES.wrongGroupPassword(0, retry)).toBe('Wrong password for this group. No tries left: try again in 15 minutes (at 8:16 PM), or ask a member for an invite link.');
  });
});

describe('lateJoinNotice', () => {
  it('says nothing before the start, what a newcomer sees after it, and in final words after round one', () => {
    expect(lateJoinNotice(joinDraftState({ draftHasStarted: false, round_one_complete: false }))).toBeNull();
    expect(lateJoinNotice(joinDraftState({ draftHasStarted: true, round_one_complete: false }))).toBe(MESSAGES.joinedAfterStart);
    expect(lateJoinNotice(joinDraftState({ draftHasStarted: true, round_one_complete: true }))).toBe(MESSAGES.joinedAfterRoundOne);
    // Round one cannot be over before the draft starts.
    expect(joinDraftState({ draftHasStarted: false, round_one_complete: true })).toEqual({ draft_started: false, round_one_complete: false });
  });
});

describe('groupPasswordProblem', () => {
  it("says what the schema says, for the forms that do not load it: blank, shorter than 8, or nothing", () => {
    for (const password of ['', '   ', '1234', '7 chars', '       x', '8 chars!', 'correct horse battery staple']) {
      const parsed = groupPasswordSchema.safeParse(password);
      expect(groupPasswordProblem(password), JSON.stringify(password)).toBe(parsed.success ? undefined : parsed.error.issues[0]!.message);
    }
    expect(groupPasswordProblem('1234')).toBe(MESSAGES.groupPasswordTooShort);
    expect(groupPasswordProblem('   ')).toBe(MESSAGES.groupPasswordBlank);
  });
});
