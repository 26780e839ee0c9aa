import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_MAGIC, isBuiltinBackup, readBuiltinBackup } from './builtin-format.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'builtin-format-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A gzip file starting with `text`, and as many random bytes (hex) as `size`; with one byte flipped at `damageAt` (0–1 of its length). */
function gzipFile(name: string, text: string, size: number, damageAt?: number): string {
  const gz = zlib.gzipSync(text + crypto.randomBytes(size).toString('hex'));
  if (damageAt !== undefined) gz[Math.floor(gz.length * damageAt)]! ^= 0xff;
  const file = path.join(dir, name);
  fs.writeFileSync(file, gz);
  return file;
}

describe('telling a built-in backup from other files', () => {
  it('knows a small backup damaged after its first line as one (restore then says it is damaged, not that it is something else)', async () => {
    // Damage in the middle of a 2 KB file lies inside the first piece read: it was refused as "not a backup".
    for (const size of [1_000, 2_000, 20_000, 200_000]) {
      expect(await isBuiltinBackup(gzipFile(`damaged-${size}.dump`, `${BUILTIN_MAGIC} 1\n`, size, 0.5)), `${size} bytes`).toBe(true);
    }
  });

  it('is not fooled by other gzip files or by files that are not gzip', async () => {
    expect(await isBuiltinBackup(gzipFile('other.gz', 'something else entirely\n', 2_000))).toBe(false);
    const plain = path.join(dir, 'plain.txt');
    fs.writeFileSync(plain, `${BUILTIN_MAGIC} 1\nnot compressed`);
    expect(await isBuiltinBackup(plain)).toBe(false);
  });
});

describe('reading a built-in backup', () => {
  it('refuses a first line or a header longer than a backup ever writes, without reading on (60 MB lines in files of 60 KB)', async () => {
    const lines = (first: Buffer, second = Buffer.alloc(0)) => zlib.gzipSync(Buffer.concat([first, Buffer.from('\n'), second, Buffer.from('\n')]));
    const spaces = Buffer.alloc(60 * 1024 * 1024, ' ');
    const firstLine = path.join(dir, 'first-line.dump');
    fs.writeFileSync(firstLine, lines(Buffer.concat([Buffer.from(`${BUILTIN_MAGIC} 1`), spaces])));
    await expect(readBuiltinBackup(firstLine, async () => {})).rejects.toThrow(/^its first line is longer than \d+ bytes/);
    const header = path.join(dir, 'header.dump');
    fs.writeFileSync(header, lines(Buffer.from(`${BUILTIN_MAGIC} 1`), Buffer.concat([Buffer.from('{"made":"'), spaces])));
    await expect(readBuiltinBackup(header, async () => {})).rejects.toThrow(/^its header is longer than [\d.]+ MB/);
  });
});
