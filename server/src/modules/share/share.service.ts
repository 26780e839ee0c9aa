import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { formatDeadline } from '@first-round/shared/deadline';
import { MESSAGES } from '@first-round/shared/messages';
import { compareByDraftOrder } from '@first-round/shared/player-filter';
import { outcomeOf, snapshotOf } from '@first-round/shared/draft-snapshot';
import type { ShareLink } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { isForeignKeyViolation, notFound } from '../../errors.js';
import { findGroupName } from '../groups/groups.repository.js';
import { findMembership, requireMembership } from '../groups/membership.js';
import { entryPlayerIds } from '../picks/picks.repository.js';
import { screenNamesOf } from '../users/participants.repository.js';
import type { CardChip, ShareCard } from './share-card.js';
import * as repo from './share.repository.js';
import { entrySetGroup } from '@first-round/shared/entries';
import { isRoundOneComplete } from '@first-round/shared/scoring';
import { entryOddsOf } from '../groups/entry-odds.js';

/** 144 random bits: 24 base64url characters, never a participant id or anything derived from one. */
export const newShareToken = () => crypto.randomBytes(18).toString('base64url');

/** Where the link's page and picture are: absolute, on the configured public address (config.ts, publicOrigin). */
export function shareUrls(token: string, publicOrigin: string): { url: string; image_url: string } {
  return { url: `${publicOrigin}/s/${token}`, image_url: `${publicOrigin}/api/share/${token}.png` };
}

/**
 * The caller's link for their entry in a group (absent: global): made on first asking, the same link
 * after. Members only (every signed-in player takes part in the global group). Not locked by the start:
 * after it is when a card has something to show.
 */
export async function createShareLink(
  { em, participantId, publicOrigin }: { em: EntityManager; participantId: string; publicOrigin: string },
  input: { group_id?: number },
): Promise<ShareLink> {
  const groupId = input.group_id ?? GLOBAL_GROUP_ID;
  await requireMembership(em, groupId, participantId);
  let token: string;
  try {
    token = await repo.findOrInsertShareLink(em, { participantId, groupId, token: newShareToken() });
  } catch (error) {
    // The group was deleted (its last member left) while the link was being made.
    if (isForeignKeyViolation(error)) throw notFound(MESSAGES.groupNotFound);
    throw error;
  }
  return { token, group_id: groupId, ...shareUrls(token, publicOrigin) };
}

/** What the card needs from the app: the draft's state and board (cached per draft version) and the standings. */
export type ShareDeps = Pick<AppDeps, 'draft' | 'draftStatus' | 'players' | 'leaderboards'>;

/** Shown for a player without a screen name (the leaderboard would show the id, which a public card must not). */
const NAMELESS = 'A First Round player';

/**
 * The card of the entry a token finds, or 404 for a token that finds none (never made, or its member has
 * left the group since). Before the start it holds the number of picks and when they lock, and nothing
 * about which players they are (the `before` card has no field that could hold a name).
 */
export async function shareCardOf(deps: ShareDeps, em: EntityManager, token: string): Promise<ShareCard> {
  const link = await repo.findShareLink(em, token);
  if (!link) throw notFound(MESSAGES.shareLinkInvalid);
  const membership = await findMembership(em, link.groupId, link.participantId);
  const groupName = link.groupId === GLOBAL_GROUP_ID ? 'Global' : await findGroupName(em, link.groupId);
  if (!membership || groupName === undefined) throw notFound(MESSAGES.shareLinkInvalid);
  const source = entrySetGroup(link.groupId, membership.use_global_picks);
  const [picks, names, status] = await Promise.all([
    entryPlayerIds(em, link.participantId, source),
    screenNamesOf(em, [link.participantId]),
    deps.draftStatus.status(),
  ]);
  const name = names.get(link.participantId)?.trim() || NAMELESS;
  const group = groupName;
  if (!status.draftHasStarted) {
    return { phase: 'before', name, group, picks: picks.length, locks: formatDeadline(deps.draft.deadline) };
  }
  const [board, standings] = await Promise.all([deps.players.list(), deps.leaderboards.get(link.groupId, em)]);
  const snapshot = snapshotOf(status, board);
  const wanted = new Set(picks);
  const teams = new Map(status.round_one_order.map((o) => [o.slot, o.team]));
  const chips = board
    .filter((p) => wanted.has(p.id))
    .sort(compareByDraftOrder)
    .map((p): CardChip => {
      const outcome = outcomeOf(p, snapshot);
      // A hit names its slot and the team that made the pick (round one's order, traded picks included).
      return outcome === 'hit' && p.draft_pick !== null ? { name: p.player_name, outcome, slot: p.draft_pick, team: teams.get(p.draft_pick) ?? null } : { name: p.player_name, outcome };
    });
  const row = standings.byParticipant.get(link.participantId);
  const odds = entryOddsOf(board, status, picks);
  return {
    phase: 'live',
    name,
    group,
    picks: chips.length,
    hits: chips.filter((c) => c.outcome === 'hit').length,
    busted: row?.busted ?? chips.some((c) => c.outcome === 'miss'),
    rank: row?.rank ?? null,
    entries: standings.rankings.length,
    final: isRoundOneComplete(snapshot),
    odds: odds && { survive: odds.survive, picksMade: status.picks_made },
    chips,
  };
}
