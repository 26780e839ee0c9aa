import fs from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import zlib from 'node:zlib';

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
 * data needs it. A reader checks each table's rows against the END line and that nothing follows it.
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
 * stream of COPY text (the rows counted on the way), then the trailer. Everything is checked: the magic and
 * version, the gzip checksum, each table in the header's order, each table's rows against the trailer, and
 * nothing after the trailer. Throws BadBackupFile on any of it.
 */
export async function readBuiltinBackup(
  file: string,
  onTable: (table: BackupHeader['tables'][number], rows: AsyncIterable<Buffer>) => Promise<void>,
): Promise<{ header: BackupHeader; trailer: BackupTrailer }> {
  const gunzip = zlib.createGunzip();
  const input = fs.createReadStream(file);
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const chunks = (gunzip as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let pending: Buffer = Buffer.alloc(0);
  /** More of the file into `pending`; false at its end. A damaged gzip stream is a bad file. */
  const more = async (): Promise<boolean> => {
    let next: IteratorResult<Buffer>;
    try {
      next = await chunks.next();
    } catch (error) {
      throw new BadBackupFile(`it is damaged or cut short (${(error as Error).message})`);
    }
    if (next.done) return false;
    pending = pending.length === 0 ? next.value : Buffer.concat([pending, next.value]);
    return true;
  };
  const line = async (what: string): Promise<string> => {
    for (;;) {
      const at = pending.indexOf(NEWLINE);
      if (at >= 0) {
        const text = pending.subarray(0, at).toString('utf8');
        pending = pending.subarray(at + 1);
        return text;
      }
      if (pending.length > 64 * 1024 * 1024) throw new BadBackupFile(`its ${what} is not a line`);
      if (!(await more())) throw new BadBackupFile(`it ends before its ${what}: it was cut short`);
    }
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
    const magic = await line('first line');
    const [word, version] = magic.split(' ');
    if (word !== BUILTIN_MAGIC) throw new BadBackupFile('it does not start with the built-in format\'s mark');
    if (Number(version) !== BUILTIN_VERSION) {
      throw new BadBackupFile(`it is in version ${version} of the built-in format, and this version of the game reads version ${BUILTIN_VERSION}: restore it with a newer version of the game`);
    }
    const header = parseJson<BackupHeader>(await line('header'), 'header');
    if (!Array.isArray(header.tables) || !Array.isArray(header.migrations)) throw new BadBackupFile('its header lists no tables or migrations');
    const rows: Record<string, number> = {};
    for (const table of header.tables) {
      const title = await line(`table ${table.name}`);
      if (title !== `TABLE ${table.name}`) throw new BadBackupFile(`table ${table.name} is missing where the header puts it`);
      const counted = { rows: 0 };
      const stream = rowsOf(table.name, counted);
      await onTable(table, stream);
      // Whatever onTable left unread is read (and checked) here.
      for await (const _ of stream);
      rows[table.name] = counted.rows;
    }
    const end = await line('END line');
    if (!end.startsWith('END ')) throw new BadBackupFile('its END line is missing');
    const trailer = parseJson<BackupTrailer>(end.slice(4), 'END line');
    for (const table of header.tables) {
      if (trailer.rows?.[table.name] !== rows[table.name]) {
        throw new BadBackupFile(`table ${table.name} holds ${rows[table.name]} rows where ${trailer.rows?.[table.name]} were written`);
      }
    }
    if (pending.length > 0 || (await more())) throw new BadBackupFile('something follows its END line');
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
