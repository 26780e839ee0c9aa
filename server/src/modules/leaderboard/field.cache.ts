import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { entrySetGroup } from '@first-round/shared/entries';
import { fieldOutput, type FieldRow } from '@first-round/shared/schemas';
import type { Orm } from '../../db/orm.js';
import { CappedCache } from '../../cache/capped.js';
import { SingleFlight } from '../../cache/single-flight.js';
import { prepareJson } from '../../responses/json-body.js';
import type { TopicBus } from '../../events/topic-bus.js';
import type { EntryBook } from '../standings/entry-book.js';
import { listBoard } from '../players/players.repository.js';
import { groupMembers } from '../standings/book.repository.js';

/** A safety bound for what no announcement covers (rows written behind the app's back, with psql). */
const MAX_AGE_MS = 5 * 60_000;
/** Groups' fields kept, least recently read evicted first (one row per player picked in the group). */
export const MAX_FIELDS = 2_000;

/** picked_by / entries, 0..1, rounded to 4 decimals (12.34 %). */
export function shareOf(pickedBy: number, entries: number): number {
  return entries > 0 ? Math.round((pickedBy / entries) * 10_000) / 10_000 : 0;
}

/**
 * The field per group (leaderboard.field), counted from the entry book's pick sets (the entries the
 * standings rank: a member's entry by the one entry rule, shared/src/entries.ts, with at least one pick)
 * and kept, validated and serialised once, until something changes who holds which player. It is only read after the start,
 * when picks are locked, so a recorded pick (which moves the draft version) does not make it stale;
 * what does:
 * - the draft's start and reset (picks were editable in between): every group;
 * - a member joining or leaving a group after the start (announced as `group`): that group;
 * - an account fix moving a temporary participant's picks (announced as `participant` with its temp_ id):
 *   every group (renames and first-login flags, the other `participant` announcements, change no count);
 * - a board import (names, ranks): every group;
 * - a resync (announcements may have been missed), and while announcements cannot be heard at all it is
 *   computed on every read, as the other caches are.
 * Concurrent readers of a group share one computation. At most MAX_FIELDS groups are kept
 * (cache/capped.ts); a computation is kept only if its group was not made stale since it began (per
 * group: a join in a small group does not throw away the global count in flight).
 */
export class FieldCache {
  private readonly fields = new CappedCache<number, { at: number; rows: FieldRow[] }>(MAX_FIELDS);
  /** Computations in progress, so concurrent readers share one; each removes itself when done. */
  private readonly inFlight = new SingleFlight<number, FieldRow[], number>((groupId, mark) => this.fields.isCurrent(groupId, mark));

  constructor(
    private readonly orm: Orm,
    private readonly book: EntryBook,
    private readonly events: Pick<TopicBus, 'isConnected' | 'onChange' | 'onResync' | 'onInvalidate'>,
    private readonly clock: () => number = Date.now,
  ) {
    book.onReloaded(() => this.clear());
    events.onChange((change) => {
      if (change.kind === 'start' || change.kind === 'auto_start' || change.kind === 'reset') this.clear();
    });
    events.onResync(() => this.clear());
    events.onInvalidate((message) => {
      if (message.kind === 'group') this.forget(message.group_id);
      else if (message.kind === 'board' || (message.kind === 'participant' && message.participant_id.startsWith('temp_'))) this.clear();
    });
  }

  /** The group's field (1 = global); `em` is used only when it must be computed. */
  get(groupId: number, em?: EntityManager): Promise<FieldRow[]> {
    if (!this.events.isConnected) return this.compute(em ?? this.orm.em.fork(), groupId);
    const hit = this.fields.get(groupId);
    if (hit && this.clock() - hit.at < MAX_AGE_MS) return Promise.resolve(hit.rows);
    const mark = this.fields.mark();
    return this.inFlight.run(groupId, mark, async () => {
      const rows = await this.compute(em ?? this.orm.em.fork(), groupId);
      this.fields.set(groupId, { at: this.clock(), rows }, mark);
      return rows;
    });
  }

  /** Every group's field is computed again at its next read. */
  clear() {
    this.fields.clear();
    this.inFlight.clear();
  }

  /** One group's field is computed again at its next read. */
  forget(groupId: number) {
    this.fields.invalidate(groupId);
    this.inFlight.forget(groupId);
  }

  private async compute(em: EntityManager, groupId: number): Promise<FieldRow[]> {
    const [book, members, players] = await Promise.all([
      this.book.sync(),
      groupId === GLOBAL_GROUP_ID ? undefined : groupMembers(em, groupId),
      listBoard(em).then((board) => board.map((p): [id: number, name: string, rank: number] => [p.id, p.player_name, p.rank])),
    ]);
    // How many of the scope's entries hold each player, by board index.
    const tally = new Int32Array(book.board.count);
    let entries = 0;
    if (!members) {
      const { global } = book;
      for (let s = 0; s < global.count; s++) {
        if (global.counts.picks[s] === 0) continue;
        entries++;
        global.tallyPlayers(s, tally);
      }
    } else {
      for (const [participantId, useGlobalPicks] of members) {
        const entry = book.entrySet(participantId, entrySetGroup(groupId, useGlobalPicks));
        if (!entry || entry.table.counts.picks[entry.set] === 0) continue;
        entries++;
        entry.table.tallyPlayers(entry.set, tally);
      }
    }
    const field = players
      .map(([id, name, rank]) => ({ rank, row: { player_id: id, player_name: name, picked_by: tally[book.board.index.get(id) ?? -1] ?? 0, entries } }))
      .filter(({ row }) => row.picked_by > 0)
      // Most picked first, then by big-board rank.
      .sort((a, b) => b.row.picked_by - a.row.picked_by || a.rank - b.rank || a.row.player_id - b.row.player_id)
      .map(({ row }) => ({ ...row, share: shareOf(row.picked_by, row.entries) }));
    return prepareJson(fieldOutput.parse(field));
  }
}
