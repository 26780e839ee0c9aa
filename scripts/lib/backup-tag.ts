import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { CommandFailure, shownPath } from './command.js';

/*
 * Every backup `npm run backup` writes ends with its integrity tag, one line after the backup's own bytes
 * (pg_dump's archive, or the built-in format's gzip):
 *
 *   \nFIRST-ROUND-TAG 1 <key id: 16 hex> <HMAC-SHA256: 64 hex>\n
 *
 * The HMAC covers every byte before the line and the line itself up to the HMAC (so the key id counts
 * too), keyed with the backup key: BACKUP_KEY, else the file DATA_DIR/backup-key, made by the first backup.
 * The key is never in a backup, so whoever can edit a backup (an e-mail address made theirs, a session
 * added) cannot make a tag `npm run restore` accepts; restore checks the tag before it reads anything else.
 */

export const TAG_MARK = 'FIRST-ROUND-TAG';
const TAG_VERSION = 1;
/** The setting that holds the key, and the file under DATA_DIR that holds it when the setting is unset. */
export const BACKUP_KEY_SETTING = 'BACKUP_KEY';
export const BACKUP_KEY_FILE = 'backup-key';
const MIN_KEY_LENGTH = 32;

const prefix = (keyId: string) => `\n${TAG_MARK} ${TAG_VERSION} ${keyId} `;
/** Every tag line is this long: 16 hex of key id, 64 of HMAC. */
export const TAG_LENGTH = prefix('0'.repeat(16)).length + 64 + 1;
const TAG_LINE = new RegExp(`^\\n${TAG_MARK} (\\d+) ([0-9a-f]{16}) ([0-9a-f]{64})\\n$`);

export interface BackupKey {
  secret: Buffer;
  /** Names the key without giving it away: the start of an HMAC of a fixed text. */
  id: string;
  /** Where it came from, as the operator names it: `BACKUP_KEY`, or the key file's path. */
  source: string;
}

const keyOf = (text: string, source: string): BackupKey => {
  const secret = Buffer.from(text, 'utf8');
  return { secret, id: crypto.createHmac('sha256', secret).update('first-round backup key id').digest('hex').slice(0, 16), source };
};

/** The key file under DATA_DIR. */
export const backupKeyFile = (dataDir: string): string => path.join(dataDir, BACKUP_KEY_FILE);

/**
 * The backup key: BACKUP_KEY when set, else DATA_DIR/backup-key. `create` (a backup) makes the file when
 * neither exists (64 hex characters, mode 0600) and says so in `made`; without it (a restore) a missing
 * key is undefined. A key shorter than 32 characters is refused: it could be guessed.
 */
export async function loadBackupKey(env: NodeJS.ProcessEnv, dataDir: string, options: { create: boolean }): Promise<{ key: BackupKey; made: boolean } | undefined> {
  const setting = env[BACKUP_KEY_SETTING]?.trim();
  if (setting) {
    if (setting.length < MIN_KEY_LENGTH) {
      throw new CommandFailure(`${BACKUP_KEY_SETTING} is too short: a backup key has at least ${MIN_KEY_LENGTH} characters (openssl rand -hex 32 makes one).`);
    }
    return { key: keyOf(setting, BACKUP_KEY_SETTING), made: false };
  }
  const file = backupKeyFile(dataDir);
  const read = async () => {
    const text = await fsp.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw new CommandFailure(`Cannot read the backup key ${shownPath(file)}: ${error.message}`);
    });
    if (text === undefined) return undefined;
    if (text.trim().length < MIN_KEY_LENGTH) throw new CommandFailure(`${shownPath(file)} is not a backup key: it holds fewer than ${MIN_KEY_LENGTH} characters.`);
    return keyOf(text.trim(), shownPath(file));
  };
  const found = await read();
  if (found) return { key: found, made: false };
  if (!options.create) return undefined;
  await fsp.mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    await fsp.writeFile(file, `${crypto.randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return { key: (await read())!, made: true };
  } catch (error) {
    // Another backup made it first: that one counts.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { key: (await read())!, made: false };
    throw new CommandFailure(`Cannot write the backup key ${shownPath(file)}: ${(error as Error).message}`);
  }
}

/** Why a backup's tag does not vouch for it: the message says what, for "Nothing was restored: FILE <message>". */
export class IntegrityFailure extends Error {}

/** The tag a file ends with, if it ends with one, and how long the backup before it is. */
export async function readTag(file: string): Promise<{ payloadBytes: number; tag?: { version: number; keyId: string; mac: string } }> {
  const handle = await fsp.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size < TAG_LENGTH) return { payloadBytes: size };
    const tail = Buffer.alloc(TAG_LENGTH);
    await handle.read(tail, 0, TAG_LENGTH, size - TAG_LENGTH);
    const match = TAG_LINE.exec(tail.toString('latin1'));
    if (!match) return { payloadBytes: size };
    return { payloadBytes: size - TAG_LENGTH, tag: { version: Number(match[1]), keyId: match[2]!, mac: match[3]! } };
  } finally {
    await handle.close();
  }
}

/** An HMAC over a backup's bytes as they are read, and its tag line once all are. */
export class TagHasher {
  private readonly hmac: crypto.Hmac;

  constructor(private readonly key: BackupKey) {
    this.hmac = crypto.createHmac('sha256', key.secret);
  }

  update(chunk: Buffer): void {
    this.hmac.update(chunk);
  }

  /** The tag line for everything given to update(); the hasher is spent. */
  line(keyId = this.key.id): string {
    this.hmac.update(prefix(keyId));
    return `${prefix(keyId)}${this.hmac.digest('hex')}\n`;
  }
}

const NO_TAG =
  'has no integrity tag, so whether it was changed cannot be checked: it was made before backups were tagged, or by hand ' +
  '(pg_dump), or it was cut short. Restore it only if you know where it came from, with --no-verify';

/**
 * Checks a tag once every byte of the backup before it went through `hasher`: the reason it fails, or
 * nothing. A tag of another key says which (the key ids), so an operator on a new machine knows to bring
 * the key along.
 */
export function tagRefusal(hasher: TagHasher, tag: Awaited<ReturnType<typeof readTag>>['tag'], key: BackupKey): string | undefined {
  if (!tag) return NO_TAG;
  if (tag.version !== TAG_VERSION) return `has an integrity tag of version ${tag.version}, and this version of the game reads version ${TAG_VERSION}: restore it with a newer version of the game`;
  // The key id is part of what the HMAC covers: a tag that checks out was made with this key.
  const expected = hasher.line(tag.keyId).slice(-65, -1);
  if (crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(tag.mac))) return undefined;
  if (tag.keyId !== key.id) {
    return (
      `fails its integrity check: it was tagged with another backup key (id ${tag.keyId}; the key here, ${key.source}, is ${key.id}). ` +
      `Set ${BACKUP_KEY_SETTING} to the key of the server that made it, or copy that server's ${BACKUP_KEY_FILE} file to DATA_DIR`
    );
  }
  return 'fails its integrity check: it has been changed or damaged since npm run backup wrote it';
}

/**
 * Reads the whole file once, checking its tag against `key` (or, with `key` undefined, checking nothing:
 * --no-verify); `copyTo`: the backup's own bytes (the tag left off) are written there on the way, so what a
 * tool reads afterwards is what was checked, whatever happens to the file meanwhile. Throws
 * IntegrityFailure when the tag does not vouch for the file.
 */
export async function checkTag(file: string, key: BackupKey | undefined, options: { copyTo?: string } = {}): Promise<void> {
  const { payloadBytes, tag } = await readTag(file);
  if (key && !tag) throw new IntegrityFailure(NO_TAG);
  const hasher = key ? new TagHasher(key) : undefined;
  const output = options.copyTo ? fs.createWriteStream(options.copyTo, { mode: 0o600, flags: 'wx' }) : undefined;
  if (payloadBytes > 0) {
    const input = fs.createReadStream(file, { start: 0, end: payloadBytes - 1 });
    for await (const chunk of input as AsyncIterable<Buffer>) {
      hasher?.update(chunk);
      if (output && !output.write(chunk)) await once(output, 'drain');
    }
  }
  if (output) {
    output.end();
    await finished(output);
  }
  const refusal = hasher && tagRefusal(hasher, tag, key!);
  if (refusal) throw new IntegrityFailure(refusal);
}

/** Appends the tag of `key` to `file`, over the file as it is (a backup just written). */
export async function appendTag(file: string, key: BackupKey): Promise<void> {
  const hasher = new TagHasher(key);
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) hasher.update(chunk);
  await fsp.appendFile(file, hasher.line());
}
