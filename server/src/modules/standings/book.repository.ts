import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../db/sql.js';
import { DraftStateSchema } from '../draft/draft.entities.js';
import { listBoard } from '../players/players.repository.js';
import { Book, type ParticipantFact, type PlayerFact } from './book.js';

/**
 * The facts the entry book is made of, read from PostgreSQL: the board and the draft state, the
 * participants with picks, and every pick set. No counts and no rule: the book counts (book.ts, with
 * shared/src/scoring.ts). Everything here reads in the caller's transaction when there is one (a load
 * runs in one repeatable-read transaction, so what it reads is one moment's).
 */

/** Participants read per round trip while loading. */
const PARTICIPANTS_PER_FETCH = 50_000;
/** Participant numbers whose sets are read per round trip while loading (~20 picks each: ~3 MB of text, decoded in ~50 ms). */
const NUMBERS_PER_READ = 25_000;

/** The board (id, big-board rank, draft round or 0) and whether round one is marked complete. */
export async function readDraftFacts(em: EntityManager): Promise<{ players: PlayerFact[]; roundOneCompleteMarked: boolean }> {
  const players = (await listBoard(em)).map((p): PlayerFact => [p.id, p.rank, p.draft_round ?? 0]);
  const state = await em.findOne(DraftStateSchema, { id: 1 }, { fields: ['roundOneComplete'], refresh: true });
  return { players, roundOneCompleteMarked: state?.roundOneComplete ?? false };
}

/**
 * A second transaction beside the load's own, in the same snapshot (`snapshot`, from pg_export_snapshot):
 * it runs `read` there. Given, the pick sets are read by both transactions at once: PostgreSQL aggregates
 * them at about a microsecond a pick, 20 seconds for a million entries on one core.
 */
export type ReadBeside = (snapshot: string, read: (em: EntityManager) => Promise<void>) => Promise<void>;

/** Takes the snapshot a `ReadBeside` was given, first thing in its transaction (repeatable read). */
export async function joinSnapshot(em: EntityManager, snapshot: string): Promise<void> {
  if (!/^[0-9A-F-]+$/i.test(snapshot)) throw new Error(`not a snapshot id: ${snapshot}`);
  // Raw: transaction settings (a shared snapshot, sort memory), which the ORM has no words for.
  await sqlRows(em, `set transaction snapshot '${snapshot}'`);
  await sqlRows(em, `set local work_mem = '256MB'`);
}

/**
 * Reads every fact into a new book. Participants come in id order (COLLATE "C", the standings' order of
 * ties) through a cursor, so neither side sorts a million ids at once; the sets come per range of
 * participant numbers as one binary value each (`setRecords`), decoded into the book's typed arrays
 * without an object per set or per pick, by this transaction and, with `beside`, a second one in the same
 * snapshot at the same time. Between round trips the event loop is free: at a million entries no step
 * holds it for more than tens of milliseconds. Must run in a repeatable-read transaction (the cursor, the
 * snapshot), or a transaction of its own without `beside` (the season archive reads in its closing one).
 */
export async function loadBook(em: EntityManager, roundOnePicks: number, beside?: ReadBeside): Promise<Book> {
  // Raw: the book's bulk reads (a million entries), each row an array, through a cursor.
  await sqlRows(em, `set local work_mem = '256MB'`);
  const [[participants, lowest, highest] = [0, null, null]] = await sqlRows<[number, number | null, number | null]>(em, `select count(*)::int, min(num), max(num) from participant`);
  const book = new Book(roundOnePicks, participants);
  const draft = await readDraftFacts(em);
  book.applyDraft(draft.players, draft.roundOneCompleteMarked);
  // The ranges of participant numbers whose sets are read, taken by whichever transaction is free.
  const ranges: number[] = [];
  if (lowest !== null && highest !== null) for (let from = lowest; from <= highest; from += NUMBERS_PER_READ) ranges.push(from);
  let next = 0;
  // Sets read before the participants are in wait for them (their numbers name participants).
  let waiting: Buffer[] | undefined = [];
  // Whether the second transaction took a range: only then is it waited for (one that never got its
  // connection, say while the pool closes, is not: this one reads every range it did not take).
  let besideTook = false;
  const readSets = async (tx: EntityManager, isBeside = false) => {
    for (let at = next++; at < ranges.length; at = next++) {
      besideTook ||= isBeside;
      const [[base64] = ['']] = await sqlRows<[string]>(tx, setRecords(`p.num >= $1 and p.num < $2`), [ranges[at], ranges[at]! + NUMBERS_PER_READ]);
      const data = Buffer.from(base64, 'base64');
      if (waiting) waiting.push(data);
      else takeSetRecords(book, data);
    }
  };
  let second: Promise<void> | undefined;
  if (beside) {
    const [[snapshot] = ['']] = await sqlRows<[string]>(em, `select pg_export_snapshot()`);
    second = beside(snapshot, (tx) => readSets(tx, true));
    // Awaited below; a failure meanwhile is not an unhandled rejection.
    second.catch(() => {});
  }
  await sqlRows(
    em,
    `declare book_participants no scroll cursor for
       select num, id, coalesce(screen_name, id) from participant order by id collate "C"`,
  );
  for (;;) {
    const rows = await sqlRows<ParticipantFact>(em, `fetch ${PARTICIPANTS_PER_FETCH} from book_participants`);
    for (const row of rows) book.takeParticipant(row);
    if (rows.length < PARTICIPANTS_PER_FETCH) break;
  }
  await sqlRows(em, `close book_participants`);
  for (const data of waiting) takeSetRecords(book, data);
  waiting = undefined;
  await readSets(em);
  if (besideTook) await second;
  for (const step of book.indexHolders()) await new Promise<void>((resolve) => setImmediate(() => resolve(step)));
  return book;
}

/**
 * Pick sets as one value: per set, int32s (big-endian) of the participant's number, the group, the number
 * of picks and each pick's player id. One value instead of a row per pick: no object, string or number per
 * pick for the garbage collector. Base64: the driver hands binary results over as text, and Node decodes
 * base64 two to three times faster than `bytea`'s hex output, which is also half as long again.
 */
const setRecords = (where: string) => `
  select encode(coalesce(string_agg(s.record, ''::bytea), ''::bytea), 'base64')
    from (select int4send(p.num) || int4send(k.group_id) || int4send(count(*)::int) || string_agg(int4send(k.player_id), ''::bytea) as record
            from pick k join participant p on p.id = k.participant_id
           where ${where}
           group by p.num, k.group_id) s`;

/** Writes the sets of `setRecords` into the book (its participants are taken already). */
function takeSetRecords(book: Book, data: Buffer) {
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  const ids = new Int32Array(data.length / 4);
  for (let i = 0; i < ids.length; i++) ids[i] = view.getInt32(i * 4);
  for (let at = 0; at < ids.length; ) {
    const num = ids[at]!;
    const groupId = ids[at + 1]!;
    const n = ids[at + 2]!;
    const p = book.participants.byNumber(num);
    // Read in the same snapshot as the participants: a set without one would be a read gone wrong.
    if (p < 0) throw new Error(`pick set of participant number ${num}, who was not read`);
    book.writeSet(p, groupId, ids, false, at + 3, n);
    at += 3 + n;
  }
}

/** The participants named (those still there) and each of their pick sets (group id → player ids). */
export async function participantFacts(em: EntityManager, ids: readonly string[]): Promise<{ participants: ParticipantFact[]; sets: [participantId: string, groupId: number, playerIds: number[]][] }> {
  // Raw: the facts as arrays, in the book's own shapes (aggregated sets).
  const participants = await sqlRows<ParticipantFact>(em, `select num, id, coalesce(screen_name, id) from participant where id = any($1::text[])`, [ids]);
  const sets = await sqlRows<[string, number, number[]]>(
    em,
    `select participant_id, group_id, array_agg(player_id) from pick where participant_id = any($1::text[]) group by participant_id, group_id`,
    [ids],
  );
  return { participants, sets };
}

/** A group's own pick sets, each with its participant (as read) and player ids. */
export function groupSetFacts(em: EntityManager, groupId: number): Promise<[num: number, id: string, name: string, playerIds: number[]][]> {
  // Raw: a group's sets aggregated per participant, as arrays.
  return sqlRows(
    em,
    `select p.num, p.id, coalesce(p.screen_name, p.id), array_agg(k.player_id)
       from pick k join participant p on p.id = k.participant_id
      where k.group_id = $1
      group by p.num, p.id`,
    [groupId],
  );
}

/** A group's members and whether each plays My Picks there (linked) or their own. */
export function groupMembers(em: EntityManager, groupId: number): Promise<[participantId: string, useGlobalPicks: boolean][]> {
  // Raw: a group's members as arrays (the global group has them all).
  return sqlRows(em, `select participant_id, use_global_picks from group_membership where group_id = $1`, [groupId]);
}
