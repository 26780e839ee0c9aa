import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_MAGIC, isBuiltinBackup } from './builtin-format.js';

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
