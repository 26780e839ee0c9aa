import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { confusablesCommand } from '../confusables.js';
import { runCommandInProcess } from './command.js';
import { formatConfusables, parseConfusables } from './confusables-table.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TABLE = path.join(ROOT, 'shared/data/confusables-17.0.0.json');

/** The head of Unicode's confusables.txt as it is published: its header, then mappings in the file's order. */
const EXCERPT = [
  '\uFEFF# confusables.txt',
  '# Date: 2025-07-22, 05:49:37 GMT',
  '# © 2025 Unicode®, Inc.',
  '# For terms of use and license, see https://www.unicode.org/terms_of_use.html',
  '#',
  '# Version: 17.0.0',
  '#',
  '05AD ;\t0596 ;\tMA\t# ( ֭ → ֖ ) HEBREW ACCENT DEHI → HEBREW ACCENT TIPEHA\t# ',
  '',
  '0031 ;\t006C ;\tMA\t# ( 1 → l ) DIGIT ONE → LATIN SMALL LETTER L\t# ',
  '006D ;\t0072 006E ;\tMA\t# ( m → rn ) LATIN SMALL LETTER M → LATIN SMALL LETTER R, LATIN SMALL LETTER N\t# ',
  '1D7CE ;\t004F ;\tMA\t# ( 𝟎 → O ) MATHEMATICAL BOLD DIGIT ZERO → LATIN CAPITAL LETTER O\t# →0→',
  '',
  '# total: 4',
  '',
].join('\r\n');

describe('the table made of confusables.txt', () => {
  it('keeps the header and every mapping, sources in code point order', () => {
    const table = parseConfusables(EXCERPT);
    expect(table).toEqual({
      header: ['confusables.txt', 'Date: 2025-07-22, 05:49:37 GMT', '© 2025 Unicode®, Inc.', 'For terms of use and license, see https://www.unicode.org/terms_of_use.html', '', 'Version: 17.0.0'],
      version: '17.0.0',
      count: 4,
      prototypes: { '05AD': '0596', '0031': '006C', '006D': '0072 006E', '1D7CE': '004F' },
    });
    expect(Object.keys(JSON.parse(formatConfusables(table)).prototypes)).toEqual(['0031', '006D', '05AD', '1D7CE']);
  });

  it('refuses what is not the file: a line that is no mapping, a source mapped twice, no version', () => {
    expect(() => parseConfusables(`${EXCERPT}\nnot a mapping`)).toThrow(/Line 16 is not a mapping/);
    expect(() => parseConfusables(`${EXCERPT}\n0031 ;\t0049 ;\tMA\t# twice`)).toThrow(/maps U\+0031 a second time/);
    expect(() => parseConfusables(EXCERPT.replace('# Version: 17.0.0', '#'))).toThrow(/no version/);
  });

  it('the command writes it under the version’s name', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'confusables-'));
    try {
      fs.writeFileSync(path.join(dir, 'confusables.txt'), EXCERPT);
      const run = await runCommandInProcess('confusables', confusablesCommand, [path.join(dir, 'confusables.txt'), dir], {});
      expect(run).toMatchObject({ code: 0, out: expect.stringContaining('4 mappings of Unicode 17.0.0') });
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'confusables-17.0.0.json'), 'utf8'))).toEqual(parseConfusables(EXCERPT));
      expect(await runCommandInProcess('confusables', confusablesCommand, [], {})).toMatchObject({ code: 1, out: expect.stringMatching(/^Usage/) });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the committed table is the command’s output as it writes it: 6,565 mappings of Unicode 17.0.0, in order, untouched', () => {
    const text = fs.readFileSync(TABLE, 'utf8');
    const table = JSON.parse(text) as ReturnType<typeof parseConfusables>;
    expect(table.version).toBe('17.0.0');
    expect(table.count).toBe(6565);
    expect(Object.keys(table.prototypes)).toHaveLength(table.count);
    expect(formatConfusables(table)).toBe(text);
  });
});
