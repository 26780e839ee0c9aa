/**
 * Unicode's confusables.txt (UTS #39, "Unicode Security Mechanisms") made into the table the name keys read
 * (shared/src/name-keys.ts): each source code point and its prototype, both in hexadecimal as the file
 * writes them, with the file's own header lines (its version, date, copyright and terms) kept word for word.
 * `npm run confusables -- confusables.txt` writes it to shared/data/confusables-<version>.json.
 */

/** The table as it is stored: Unicode's header lines, the version they name, and the mappings by source. */
export interface ConfusablesTable {
  /** The comment lines before the first mapping, without their '# ' (the file's name, date, copyright, terms, version). */
  header: string[];
  /** The version the header names ('17.0.0'). */
  version: string;
  /** How many mappings the file holds (one per source code point). */
  count: number;
  /** Source code point → its prototype: hexadecimal code points, space-separated ('006D' → '0072 006E', m → rn). */
  prototypes: Record<string, string>;
}

const MAPPING = /^([0-9A-F]{4,6}) ;\t([0-9A-F]{4,6}(?: [0-9A-F]{4,6})*) ;\tMA\t#/;

/** The table of a confusables.txt's text; throws on a line that is neither a comment, blank, nor a mapping. */
export function parseConfusables(text: string): ConfusablesTable {
  const header: string[] = [];
  const prototypes: Record<string, string> = {};
  let count = 0;
  let inHeader = true;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.startsWith('#')) {
      if (inHeader) header.push(line.replace(/^# ?/, ''));
      return;
    }
    inHeader = false;
    if (line.trim() === '') return;
    const match = MAPPING.exec(line);
    if (!match) throw new Error(`Line ${index + 1} is not a mapping: ${JSON.stringify(line.slice(0, 80))}`);
    const [, source, prototype] = match as unknown as [string, string, string];
    if (source in prototypes) throw new Error(`Line ${index + 1} maps U+${source} a second time`);
    prototypes[source] = prototype;
    count++;
  });
  // Blank comment lines at the end of the header carry nothing.
  while (header.length > 0 && header.at(-1) === '') header.pop();
  const version = header.map((h) => /^Version: (\d+\.\d+\.\d+)$/.exec(h)?.[1]).find(Boolean);
  if (!version) throw new Error('The header names no version (a line "# Version: X.Y.Z")');
  if (count === 0) throw new Error('The file holds no mappings');
  return { header, version, count, prototypes };
}

/** The table as the file is written: sources in code point order, one mapping a line, so a change reads as a diff. */
export function formatConfusables(table: ConfusablesTable): string {
  const sources = Object.keys(table.prototypes).sort((a, b) => parseInt(a, 16) - parseInt(b, 16));
  const mappings = sources.map((s) => `    ${JSON.stringify(s)}: ${JSON.stringify(table.prototypes[s])}`).join(',\n');
  return [
    '{',
    `  "header": ${JSON.stringify(table.header)},`,
    `  "version": ${JSON.stringify(table.version)},`,
    `  "count": ${table.count},`,
    '  "prototypes": {',
    mappings,
    '  }',
    '}',
    '',
  ].join('\n');
}
