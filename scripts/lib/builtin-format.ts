import fs from 'node:fs';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import zlib from 'node:zlib';
import { IntegrityFailure, readTag, TagHasher, tagRefusal, type BackupKey } from './backup-tag.js';

/*
 * The built-in backup format, written by the game itself where no pg_dump as new as the server is installed
 * (the embedded PostgreSQL ships none). The whole file is gzip (its CRC catches a damaged file), and inside:
 *
 *   FIRST-ROUND-BACKUP 1\n                      magic and format version
 *   {"made":…,"server":"18.4","migrations":[…],"tables":[{"name":"pick","columns":["id",…]},…]}\n
 *   TABLE pick\n                                 per table, in the header's order:
 *   <the table's rows as COPY … TO STDOUT writes them (text format: one line a row)>
 *   \.\n                                         end of the table (no row is ever `\.`: COPY doubles backslashes)
 *   …
 *   END {"rows":{"pick":12,…},"sequences":[{"name":"pick_id_seq","value":"12","called":true},…]}\n
 *
 * Sequences come last: they are read after the data (outside any snapshot), so each is at least where the
 * data needs it. A reader checks each table's rows against the END line and that nothing follows it. After
 * the gzip comes the integrity tag every backup ends with (scripts/lib/backup-tag.ts).
 *
 * The reader's work grows with the file, never faster: a line is searched for its end only in bytes not
 * searched before, and the lines that are not rows have bounds (a first line of 60 MB is refused after 64
 * bytes, not read whole); rows are streamed through, however long.
 */

export const BUILTIN_MAGIC = 'FIRST-ROUND-BACKUP';
export const BUILTIN_VERSION = 1;

export interface BackupHeader {
  /** ISO time the snapshot was taken. */
  made: string;
  /** The server's version, `18.4`. */
  server: string;
  /** The game's migrations applied, in order (the migrations table's names). */
  migrations: string[];
  tables: { name: string; columns: string[] }[];
}

export interface BackupTrailer {
  rows: Record<string, number>;
  sequences: { name: string; value: string; called: boolean }[];
}

/** A file that is not a readable built-in backup: the message says what is wrong with it. */
export class BadBackupFile extends Error {}

const NEWLINE = 0x0a;
const EMPTY = Buffer.alloc(0);
/** The longest each line that is not a row may be: longer ones are not a backup this game wrote. */
const LINE_BOUNDS = {
  magic: 64,
  /** A table's title line: `TABLE ` and a name (PostgreSQL's names have at most 63 bytes). */
  title: 1024,
  /** The header and the END line: a few kilobytes for the game's tables and sequences. */
  json: 16 * 1024 * 1024,
};
const describeBound = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`);
const END_OF_TABLE = Buffer.from('\\.\n');
const LINE_THEN_END = Buffer.from('\n\\.\n');

/** Whether `file` starts as a built-in backup does (gzip, then the magic). False for anything unreadable. */
export async function isBuiltinBackup(file: string): Promise<boolean> {
  // Read in small pieces: gunzip gives out what it decoded after each, so the magic is out before any damage
  // further on stops it (one 64 KB piece let damage in a small backup's middle refuse it as "not a backup").
  const input = fs.createReadStream(file, { end: 64 * 1024, highWaterMark: 256 });
  const gunzip = zlib.createGunzip();
  input.pipe(gunzip);
  const head: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      head.push(chunk);
      length += chunk.length;
      if (length >= BUILTIN_MAGIC.length) break;
    }
  } catch {
    // not gzip, or shorter than its first block: looked at below
  } finally {
    input.destroy();
    gunzip.destroy();
  }
  return Buffer.concat(head).subarray(0, BUILTIN_MAGIC.length).toString('latin1') === BUILTIN_MAGIC;
}

/** Writes a built-in backup to `file` (which exists, empty, with its mode), gzip-compressed as it goes. */
export class BackupWriter {
  private readonly gzip = zlib.createGzip();
  private readonly done: Promise<void>;

  constructor(file: string) {
    const output = fs.createWriteStream(file, { flags: 'w' });
    this.gzip.pipe(output);
    this.done = finished(output);
    // Either side failing ends the writing: surfaced by the next write or by close().
    this.gzip.on('error', (error) => output.destroy(error));
    this.done.catch(() => {});
  }

  async write(data: Buffer | string): Promise<void> {
    if (!this.gzip.write(data)) await Promise.race([once(this.gzip, 'drain'), this.done]);
  }

  async header(header: BackupHeader): Promise<void> {
    await this.write(`${BUILTIN_MAGIC} ${BUILTIN_VERSION}\n${JSON.stringify(header)}\n`);
  }

  /** One table: `rows` is COPY's text output, streamed through. */
  async table(name: string, rows: AsyncIterable<Buffer>): Promise<void> {
    await this.write(`TABLE ${name}\n`);
    for await (const chunk of rows) await this.write(chunk);
    await this.write(END_OF_TABLE);
  }

  async close(trailer: BackupTrailer): Promise<void> {
    this.gzip.end(`END ${JSON.stringify(trailer)}\n`);
    await this.done;
  }
}

/**
 * Reads a built-in backup from start to end: the header, then each table's rows handed to `onTable` as a
 * stream of COPY text (the rows counted on the way; `firstLine`: the line of the file its first row is on,
 * counted from 1 in the file as gunzip gives it), then the trailer. Everything is checked: the magic and
 * version, the gzip checksum, each table in the header's order, each table's rows against the trailer, and
 * nothing after the trailer. Throws BadBackupFile on any of it. With `key`, the file's integrity tag is
 * checked too, once every byte has been read (IntegrityFailure); without, a tag is skipped unchecked.
 */
export async function readBuiltinBackup(
  file: string,
  onTable: (table: BackupHeader['tables'][number], rows: AsyncIterable<Buffer>, where: { firstLine: number }) => Promise<void>,
  options: { key?: BackupKey } = {},
): Promise<{ header: BackupHeader; trailer: BackupTrailer }> {
  const { payloadBytes, tag } = await readTag(file);
  const gunzip = zlib.createGunzip();
  // The backup's own bytes, the tag after them left off.
  const input: Readable = payloadBytes > 0 ? fs.createReadStream(file, { start: 0, end: payloadBytes - 1 }) : Readable.from([]);
  const hasher = options.key ? new TagHasher(options.key) : undefined;
  if (hasher) input.on('data', (chunk) => hasher.update(chunk as Buffer));
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const chunks = (gunzip as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let pending: Buffer = EMPTY;
  /** Lines of the file read so far. */
  let lines = 0;
  /** More of the file into `pending`; false at its end. A damaged gzip stream is a bad file. */
  const more = async (): Promise<boolean> => {
    let next: IteratorResult<Buffer>;
    try {
      next = await chunks.next();
    } catch (error) {
      throw new BadBackupFile(`it is damaged or cut short (${(error as Error).message})`);
    }
    if (next.done) return false;
    // Only ever a few bytes kept from before (rowsOf's end mark): never a growing buffer copied again.
    pending = pending.length === 0 ? next.value : Buffer.concat([pending, next.value]);
    return true;
  };
  /** The next line, at most `bound` bytes: each byte is looked at once, the pieces joined once. */
  const line = async (what: string, bound: number): Promise<string> => {
    const pieces: Buffer[] = [];
    let length = 0;
    for (;;) {
      const at = pending.indexOf(NEWLINE);
      if (at >= 0) {
        if (length + at > bound) break;
        pieces.push(pending.subarray(0, at));
        pending = pending.subarray(at + 1);
        lines++;
        return (pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, length + at)).toString('utf8');
      }
      length += pending.length;
      if (length > bound) break;
      pieces.push(pending);
      pending = EMPTY;
      if (!(await more())) throw new BadBackupFile(`it ends before its ${what}: it was cut short`);
    }
    throw new BadBackupFile(`its ${what} is longer than ${describeBound(bound)}: no backup this game writes has one that long`);
  };
  /** A table's rows, up to its `\.` line; counts them. */
  async function* rowsOf(name: string, counted: { rows: number }): AsyncGenerator<Buffer> {
    const emit = (data: Buffer) => {
      for (let i = 0; i < data.length; i++) if (data[i] === NEWLINE) counted.rows++;
      return data;
    };
    let atStart = true;
    for (;;) {
      if (atStart && pending.length >= END_OF_TABLE.length && pending.subarray(0, END_OF_TABLE.length).equals(END_OF_TABLE)) {
        pending = pending.subarray(END_OF_TABLE.length);
        return;
      }
      const end = pending.indexOf(LINE_THEN_END);
      if (end >= 0) {
        yield emit(pending.subarray(0, end + 1));
        pending = pending.subarray(end + LINE_THEN_END.length);
        return;
      }
      // All but what may begin the end mark (the next read completes it).
      const keep = LINE_THEN_END.length - 1;
      if (pending.length > keep) {
        const out = pending.subarray(0, pending.length - keep);
        pending = pending.subarray(pending.length - keep);
        atStart = false;
        yield emit(out);
      }
      if (!(await more())) throw new BadBackupFile(`table ${name} ends before its end mark: the file was cut short`);
    }
  }

  try {
    const magic = await line('first line', LINE_BOUNDS.magic);
    const [word, version] = magic.split(' ');
    if (word !== BUILTIN_MAGIC) throw new BadBackupFile('it does not start with the built-in format\'s mark');
    if (Number(version) !== BUILTIN_VERSION) {
      throw new BadBackupFile(`it is in version ${version} of the built-in format, and this version of the game reads version ${BUILTIN_VERSION}: restore it with a newer version of the game`);
    }
    const header = parseJson<BackupHeader>(await line('header', LINE_BOUNDS.json), 'header');
    if (!Array.isArray(header.tables) || !Array.isArray(header.migrations)) throw new BadBackupFile('its header lists no tables or migrations');
    const rows: Record<string, number> = {};
    for (const table of header.tables) {
      const title = await line(`title line of table ${table.name}`, LINE_BOUNDS.title);
      if (title !== `TABLE ${table.name}`) throw new BadBackupFile(`table ${table.name} is missing where the header puts it`);
      const counted = { rows: 0 };
      const stream = rowsOf(table.name, counted);
      await onTable(table, stream, { firstLine: lines + 1 });
      // Whatever onTable left unread is read (and checked) here.
      for await (const _ of stream);
      rows[table.name] = counted.rows;
      lines += counted.rows + 1; // and its `\.` line
    }
    const end = await line('END line', LINE_BOUNDS.json);
    if (!end.startsWith('END ')) throw new BadBackupFile('its END line is missing');
    const trailer = parseJson<BackupTrailer>(end.slice(4), 'END line');
    for (const table of header.tables) {
      if (trailer.rows?.[table.name] !== rows[table.name]) {
        throw new BadBackupFile(`table ${table.name} holds ${rows[table.name]} rows where ${trailer.rows?.[table.name]} were written`);
      }
    }
    if (pending.length > 0 || (await more())) throw new BadBackupFile('something follows its END line');
    const refusal = hasher && tagRefusal(hasher, tag, options.key!);
    if (refusal) throw new IntegrityFailure(refusal);
    return { header, trailer };
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

function parseJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new BadBackupFile(`its ${what} is not readable`);
  }
}
