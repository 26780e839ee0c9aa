// `npm run players:import -- FILE.csv`: validates every row (errors name their row) and replaces the big board
// all or nothing. Columns: rank,player_name,position,school and optionally band (see shared/data/README.md).
import fs from 'node:fs/promises';
import { DomainError } from '../server/src/errors.js';
import { importBoardCsv } from '../server/src/modules/seasons/board.service.js';
import { CommandFailure, isMainModule, runCommandAsProcess, type Command } from './lib/command.js';
import { openScriptDatabase } from './lib/database.js';

/** `npm run players:import -- FILE.csv`; the tests run it in-process (scripts/lib/command.ts). */
export const playersImportCommand: Command = async ([file], io) => {
  if (!file) throw new CommandFailure('Usage: npm run players:import -- FILE.csv   (columns: rank,player_name,position,school[,band])');
  const text = await fs.readFile(file, 'utf8').catch(() => {
    throw new CommandFailure(`Cannot read ${file}`);
  });
  const db = await openScriptDatabase({ env: io.env });
  try {
    const summary = await importBoardCsv(db.orm.em.fork(), text);
    io.out(`Imported ${file}: ${summary.inserted} added, ${summary.updated} updated, ${summary.removed} removed.`);
  } catch (error) {
    if (error instanceof DomainError) throw new CommandFailure(`Nothing was imported.\n${error.message}`);
    throw error;
  } finally {
    await db.close();
  }
};

if (isMainModule(import.meta.url)) runCommandAsProcess('players:import', playersImportCommand);
