import type { EntityManager } from '@mikro-orm/postgresql';
import type { FeedStatus } from '@first-round/shared/schemas';
import { describeFeedItem } from '@first-round/shared/feed-words';
import type { Config } from '../../config.js';
import { badRequest, conflict, DomainError, notFound } from '../../errors.js';
import { PlayerSchema, type Player } from '../players/players.entities.js';
import { recordPick, type DraftSettings } from '../draft/draft.service.js';
import type { FeedPick } from './feed.adapters.js';
import { matchPlayer } from './feed.match.js';
import { pollDelaySeconds } from './feed.backoff.js';
import { FeedQueueItemSchema } from './feed.entities.js';
import { findQueueItem, insertQueueItem, openQueueItems, readFeedStatus, resolveOpenConfirmations, slotsAwaitingConfirmation, toQueueItemDto } from './feed.repository.js';

/** The audit log's actor for picks the feed records by itself. */
export const FEED_ACTOR = 'feed';

export interface FeedOutcome {
  /** Slots recorded by this run. */
  recorded: number[];
  /** Reports newly queued (to confirm or in conflict). */
  queued: number;
  /** Round-one picks the feed reported. */
  seen: number;
  /** Draft change event ids of the recorded picks (the caller marks its caches stale). */
  eventIds: number[];
}

/** The round-one picks of a feed: `overall` within the slots; a pick that names another round is not one. */
export function roundOnePicks(picks: readonly FeedPick[], slots: number): FeedPick[] {
  return picks.filter((p) => p.overall >= 1 && p.overall <= slots && (p.round === 1 || p.round === 0));
}

/**
 * Applies one feed document (docs/decisions.md, "Results feed"). Every slot stands on its own, so order,
 * repeats and gaps do not matter:
 * - slot already recorded with the player the feed names: nothing;
 * - slot recorded with someone else: a conflict is queued (never an overwrite);
 * - slot empty, a sure match (exact, or normalised name + school) not yet drafted: recorded as 'feed';
 * - slot empty, a sure match already drafted at another slot: a conflict;
 * - otherwise (fuzzy or no match): queued for the operator to confirm.
 */
export async function applyFeed(em: EntityManager, settings: DraftSettings, picks: readonly FeedPick[]): Promise<FeedOutcome> {
  const round = roundOnePicks(picks, settings.roundOnePicks);
  const outcome: FeedOutcome = { recorded: [], queued: 0, seen: round.length, eventIds: [] };
  // One board read per run; recorded picks update it in place so later picks of the same run see them.
  const board: Player[] = await em.fork().find(PlayerSchema, {}, { orderBy: { rank: 'asc' } });
  const bySlot = new Map(board.filter((p) => p.draftRound === 1 && p.draftPick !== null).map((p) => [p.draftPick!, p]));
  const awaiting = await slotsAwaitingConfirmation(em);
  for (const pick of round) {
    const match = matchPlayer(pick, board);
    const report = { slot: pick.overall, feedPlayerName: pick.playerName, feedSchool: pick.school, feedPosition: pick.position, feedTeam: pick.team };
    const queue = async (kind: 'confirm' | 'conflict', recordedPlayerId: number | null) => {
      const fresh = await insertQueueItem(em, { ...report, kind, suggestedPlayerId: match.player?.id ?? null, recordedPlayerId, score: match.score });
      if (fresh) outcome.queued++;
    };
    const recorded = bySlot.get(pick.overall);
    if (recorded) {
      // Recorded meanwhile (by hand, say): a question still open about this slot is settled; a
      // disagreement with what was recorded is raised as a conflict.
      if (awaiting.delete(pick.overall)) await resolveOpenConfirmations(em, pick.overall, FEED_ACTOR);
      if (match.player?.id !== recorded.id) await queue('conflict', recorded.id);
      continue;
    }
    if (match.kind === 'exact' || match.kind === 'normalised') {
      if (match.player.draftRound !== null) {
        await queue('conflict', null);
        continue;
      }
      try {
        const change = await recordPick(em.fork(), settings, FEED_ACTOR, pick.overall, match.player.id);
        match.player.draftRound = 1;
        match.player.draftPick = pick.overall;
        bySlot.set(pick.overall, match.player);
        outcome.recorded.push(pick.overall);
        outcome.eventIds.push(change.event_id);
        await resolveOpenConfirmations(em, pick.overall, FEED_ACTOR);
      } catch (error) {
        // Recorded meanwhile by the operator, round marked complete, …: the next poll sees the new state.
        if (!(error instanceof DomainError)) throw error;
      }
      continue;
    }
    await queue('confirm', null);
  }
  return outcome;
}

export async function feedStatus(em: EntityManager, config: Pick<Config, 'FEED_URL' | 'FEED_KIND' | 'FEED_INTERVAL_SECONDS'>, now: Date): Promise<FeedStatus> {
  const status = await readFeedStatus(em);
  const queue = await openQueueItems(em);
  return {
    configured: Boolean(config.FEED_URL),
    kind: config.FEED_KIND,
    interval_seconds: config.FEED_INTERVAL_SECONDS,
    last_poll_at: status.lastPollAt?.toISOString() ?? null,
    last_success_at: status.lastSuccessAt?.toISOString() ?? null,
    last_error: status.lastError,
    lag_seconds: status.lastSuccessAt ? Math.max(0, Math.round((now.getTime() - status.lastSuccessAt.getTime()) / 1000)) : null,
    picks_seen: status.picksSeen,
    consecutive_failures: status.consecutiveFailures,
    next_poll_at: status.nextPollAt?.toISOString() ?? null,
    next_poll_in_seconds: status.nextPollAt ? Math.max(0, Math.round((status.nextPollAt.getTime() - now.getTime()) / 1000)) : null,
    backing_off: pollDelaySeconds(config.FEED_INTERVAL_SECONDS, status.consecutiveFailures) > config.FEED_INTERVAL_SECONDS,
    queue: queue.map(toQueueItemDto),
  };
}

async function openItem(em: EntityManager, id: number) {
  const item = await findQueueItem(em, id);
  if (!item) throw notFound(`No feed queue item with id ${id}`);
  if (item.status !== 'open') throw conflict(`Feed queue item ${id} is already ${item.status}`);
  return item;
}

/**
 * The operator confirms a queued report: records its slot with the suggested player, or with `playerId`
 * (another board player). A conflict's slot is filled: undo the recorded pick first (never overwritten here).
 */
export async function confirmQueueItem(em: EntityManager, settings: DraftSettings, actor: string, id: number, playerId?: number) {
  const item = await openItem(em, id);
  const chosen = playerId ?? item.suggested?.id;
  if (chosen === undefined) throw badRequest('The feed named no board player: choose one (player_id)');
  const change = await recordPick(em.fork(), settings, actor, item.slot, chosen);
  const settled = await em.fork().nativeUpdate(FeedQueueItemSchema, { id, status: 'open' }, { status: 'confirmed', resolvedAt: new Date(), resolvedBy: actor });
  if (settled) await resolveOpenConfirmations(em, item.slot, actor);
  return { item: toQueueItemDto((await findQueueItem(em, id))!), event_id: change.event_id };
}

export async function dismissQueueItem(em: EntityManager, actor: string, id: number) {
  await openItem(em, id);
  const settled = await em.fork().nativeUpdate(FeedQueueItemSchema, { id, status: 'open' }, { status: 'dismissed', resolvedAt: new Date(), resolvedBy: actor });
  if (!settled) throw conflict(`Feed queue item ${id} was settled meanwhile`);
  return { item: toQueueItemDto((await findQueueItem(em, id))!), event_id: null };
}

/** The feed's status as lines for the operator's terminal (`npm run draft -- status`). */
export function describeFeedStatus(status: FeedStatus): string[] {
  // The command line runs beside the server, often without its FEED_URL: a server that polls has left its
  // status and queue in the database, which count whatever this process's own configuration says.
  const polledElsewhere = !status.configured && (status.last_poll_at !== null || status.queue.length > 0);
  if (!status.configured && !polledElsewhere) return ['Feed: not configured (set FEED_URL to poll a results feed)'];
  const lines = [
    (polledElsewhere ? 'Feed (polled by the server): ' : `Feed: ${status.kind}, every ${status.interval_seconds} s while the draft is live; `) +
      (status.last_poll_at ? `last poll ${status.last_poll_at}` : 'not polled yet') +
      (status.lag_seconds === null ? '' : `, last success ${status.lag_seconds} s ago, ${status.picks_seen} round-one picks seen`) +
      (status.next_poll_in_seconds === null || status.backing_off ? '' : `, next poll in ${status.next_poll_in_seconds} s`),
  ];
  if (status.last_error) lines.push(`  Last error: ${status.last_error}`);
  if (status.backing_off && status.next_poll_at)
    lines.push(`  Backing off after ${status.consecutive_failures} failed polls in a row: next poll at ${status.next_poll_at} (in ${status.next_poll_in_seconds} s)`);
  for (const item of status.queue) lines.push(`  ${item.kind === 'conflict' ? 'Conflict' : 'To confirm'} #${item.id}: ${describeFeedItem(item)}`);
  if (status.queue.length) lines.push('  Confirm or dismiss them on /admin (or POST /api/draft/feed/queue/{id}/confirm | dismiss).');
  return lines;
}
