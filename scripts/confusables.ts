// `npm run confusables -- PATH/confusables.txt`: writes the name keys' table of look-alike characters
// (shared/data/confusables-<version>.json) from Unicode's confusables.txt
// (https://www.unicode.org/Public/security/<version>/confusables.txt). shared/src/name-keys.ts imports the
// table by its version's name: a new version is a new file and a change of that import.
import fs from 'node:fs/promises';
import path from 'node:path';
import { CommandFailure, isMainModule, runCommandAsProcess, shownPath, type Command } from './lib/command.js';
import { formatConfusables, parseConfusables } from './lib/confusables-table.js';

const DATA_DIR = path.resolve(import.meta.dirname, '../shared/data');

/** `npm run confusables -- confusables.txt [OUT_DIR]`; the tests run it in-process (scripts/lib/command.ts). */
export const confusablesCommand: Command = async ([file, outDir = DATA_DIR], io) => {
  if (!file) throw new CommandFailure('Usage: npm run confusables -- PATH/confusables.txt   (Unicode UTS #39 data)');
  const text = await fs.readFile(file, 'utf8').catch(() => {
    throw new CommandFailure(`Cannot read ${file}`);
  });
  let table;
  try {
    table = parseConfusables(text);
  } catch (error) {
    throw new CommandFailure(`${file} is not Unicode's confusables.txt: ${(error as Error).message}`);
  }
  const out = path.join(outDir, `confusables-${table.version}.json`);
  await fs.writeFile(out, formatConfusables(table));
  io.out(`Wrote ${shownPath(out)}: ${table.count} mappings of Unicode ${table.version}.`);
};

if (isMainModule(import.meta.url)) runCommandAsProcess('confusables', confusablesCommand);
