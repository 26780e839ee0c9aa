// `npm run players:import -- FILE.csv`: validates every row (errors name their row) and replaces the big board
// all or nothing. Columns: rank,player_name,position,school and optionally band (see shared/data/README.md).
import fs from 'node:fs/promises';
import { DomainError } from '../server/src/errors.js';
import { importBoardCsv } from '../server/src/modules/players/board.service.js';
import { fail, openScriptDatabase } from './lib/database.js';

async function main() {
  const file = process.argv[2];
  if (!file) fail('Usage: npm run players:import -- FILE.csv   (columns: rank,player_name,position,school[,band])');
  const text = await fs.readFile(file, 'utf8').catch(() => fail(`Cannot read ${file}`));
  const db = await openScriptDatabase();
  try {
    const summary = await importBoardCsv(db.orm.em.fork(), text);
    console.log(`Imported ${file}: ${summary.inserted} added, ${summary.updated} updated, ${summary.removed} removed.`);
  } catch (error) {
    await db.close();
    if (error instanceof DomainError) fail(`Nothing was imported.\n${error.message}`);
    throw error;
  }
  await db.close();
}

main().catch((error: unknown) => {
  console.error(`players:import: ${(error as Error)?.message ?? error}`);
  process.exit(1);
});
