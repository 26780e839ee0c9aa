import type { EntityManager } from '@mikro-orm/postgresql';
import type { FeedStatus } from '@first-round/shared/schemas';
import { describeFeedItem } from '@first-round/shared/feed-words';
import { findTeam } from '@first-round/shared/teams';
import type { Config } from '../../config.js';
import { badRequest, conflict, DomainError, notFound } from '../../errors.js';
import { PlayerSchema, type Player } from '../players/players.entities.js';
import { recordPick, setSlotTeam, type DraftSettings } from '../draft/draft.service.js';
import { orderWithSetters } from '../draft/order.repository.js';
import type { FeedPick } from './feed.adapters.js';
import { matchPlayer } from './feed.match.js';
import { pollDelaySeconds } from './feed.backoff.js';
import { FeedQueueItemSchema } from './feed.entities.js';
import { findQueueItem, insertQueueItem, openQueueItems, readFeedStatus, resolveOpenItems, slotsWithOpenItems, toQueueItemDto } from './feed.repository.js';

/** The audit log's actor for picks the feed records by itself. */
export const FEED_ACTOR = 'feed';

export interface FeedOutcome {
  /** Slots recorded by this run. */
  recorded: number[];
  /** Slots given to the team the feed reports by this run (a traded pick). */
  teams: number[];
  /** Reports newly queued (to confirm or in conflict). */
  queued: number;
  /** Round-one picks the feed reported. */
  seen: number;
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
 * A pick's team, when the feed names one, is applied first (applyTeam): the team made the pick.
 */
export async function applyFeed(em: EntityManager, settings: DraftSettings, picks: readonly FeedPick[]): Promise<FeedOutcome> {
  const round = roundOnePicks(picks, settings.roundOnePicks);
  const outcome: FeedOutcome = { recorded: [], teams: [], queued: 0, seen: round.length };
  // One board and order read per run; changes update them in place so later picks of the same run see them.
  const board: Player[] = await em.fork().find(PlayerSchema, {}, { orderBy: { rank: 'asc' } });
  const bySlot = new Map(board.filter((p) => p.draftRound === 1 && p.draftPick !== null).map((p) => [p.draftPick!, p]));
  const order = await orderWithSetters(em);
  const awaiting = await slotsWithOpenItems(em, 'confirm');
  const teamItems = await slotsWithOpenItems(em, 'team');
  for (const pick of round) {
    await applyTeam(em, settings, pick, { order, teamItems }, outcome);
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
      if (awaiting.delete(pick.overall)) await resolveOpenItems(em, pick.overall, 'confirm', FEED_ACTOR);
      if (match.player?.id !== recorded.id) await queue('conflict', recorded.id);
      continue;
    }
    if (match.kind === 'exact' || match.kind === 'normalised') {
      if (match.player.draftRound !== null) {
        await queue('conflict', null);
        continue;
      }
      try {
        await recordPick(em.fork(), settings, FEED_ACTOR, pick.overall, match.player.id);
        match.player.draftRound = 1;
        match.player.draftPick = pick.overall;
        bySlot.set(pick.overall, match.player);
        outcome.recorded.push(pick.overall);
        await resolveOpenItems(em, pick.overall, 'confirm', FEED_ACTOR);
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

/**
 * The team a feed names for a slot (docs/decisions.md, "Teams on the clock"). The feed writes it (actor
 * `feed`, logged, announced, undoable) when it is one of the 32 and the slot's team came from the season's
 * order or from the feed itself. It never overrides a team an operator set, and never writes a team it
 * does not know: either waits in the queue as a `team` item (once per slot and team). A slot already
 * holding the feed's team settles the open team items about it.
 */
async function applyTeam(
  em: EntityManager,
  settings: DraftSettings,
  pick: FeedPick,
  { order, teamItems }: { order: Map<number, { team: string; setBy: string | null }>; teamItems: Set<number> },
  outcome: FeedOutcome,
): Promise<void> {
  if (pick.team === null) return;
  const slot = pick.overall;
  const known = findTeam(pick.team);
  const now = order.get(slot);
  if (known && known.abbreviation === now?.team) {
    if (teamItems.delete(slot)) await resolveOpenItems(em, slot, 'team', FEED_ACTOR);
    return;
  }
  const setByOperator = now?.setBy != null && now.setBy !== FEED_ACTOR;
  if (!known || setByOperator) {
    const fresh = await insertQueueItem(em, {
      slot,
      kind: 'team',
      feedPlayerName: pick.playerName,
      feedSchool: pick.school,
      feedPosition: pick.position,
      feedTeam: pick.team,
      suggestedPlayerId: null,
      recordedPlayerId: null,
      score: null,
      recordedTeam: now?.team ?? null,
    });
    if (fresh) outcome.queued++;
    return;
  }
  try {
    await setSlotTeam(em.fork(), settings, FEED_ACTOR, slot, known.abbreviation);
    order.set(slot, { team: known.abbreviation, setBy: FEED_ACTOR });
    outcome.teams.push(slot);
  } catch (error) {
    // Changed meanwhile by the operator: the next poll sees the new order.
    if (!(error instanceof DomainError)) throw error;
  }
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
 * A `team` item gives the slot the feed's team, as the operator's own change (a team not among the 32
 * cannot be taken: dismiss it and set the team by hand).
 */
export async function confirmQueueItem(em: EntityManager, settings: DraftSettings, actor: string, id: number, playerId?: number) {
  const item = await openItem(em, id);
  if (item.kind === 'team') {
    const team = findTeam(item.feedTeam);
    if (!team) throw badRequest(`The feed's team "${item.feedTeam}" is not one of the 32 NFL teams: dismiss this, and set pick ${item.slot}'s team yourself if it is wrong`);
    const change = await setSlotTeam(em.fork(), settings, actor, item.slot, team.abbreviation);
    const settled = await em.fork().nativeUpdate(FeedQueueItemSchema, { id, status: 'open' }, { status: 'confirmed', resolvedAt: new Date(), resolvedBy: actor });
    if (settled) await resolveOpenItems(em, item.slot, 'team', actor);
    return { item: toQueueItemDto((await findQueueItem(em, id))!), event_id: change.event_id };
  }
  const chosen = playerId ?? item.suggested?.id;
  if (chosen === undefined) throw badRequest('The feed named no board player: choose one (player_id)');
  const change = await recordPick(em.fork(), settings, actor, item.slot, chosen);
  const settled = await em.fork().nativeUpdate(FeedQueueItemSchema, { id, status: 'open' }, { status: 'confirmed', resolvedAt: new Date(), resolvedBy: actor });
  if (settled) await resolveOpenItems(em, item.slot, 'confirm', actor);
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
  const label = { conflict: 'Conflict', confirm: 'To confirm', team: 'Team' } as const;
  for (const item of status.queue) lines.push(`  ${label[item.kind]} #${item.id}: ${describeFeedItem(item)}`);
  if (status.queue.length) lines.push('  Confirm or dismiss them on /admin (or POST /api/draft/feed/queue/{id}/confirm | dismiss).');
  return lines;
}
