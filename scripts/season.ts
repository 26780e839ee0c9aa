// The operator's seasons: `npm run season -- new <year> --board FILE.csv [--order FILE.csv] [--deadline ISO] [--force]` closes the
// current season into the archive and opens the next one; `npm run season -- list` shows them all.
// Works against the same database as a running server, which drops its caches when the new season commits.
import fs from 'node:fs/promises';
import os from 'node:os';
import { z } from 'zod';
import { parseWholeNumber } from '@first-round/shared/ids';
import { DomainError } from '../server/src/errors.js';
import { draftSettings } from '../server/src/modules/draft/draft.service.js';
import { parseBoardText } from '../server/src/modules/seasons/board.service.js';
import { defaultSeasonDeadline, openSeason, parseOrderText, seasonLines } from '../server/src/modules/seasons/seasons.service.js';
import { CommandFailure, isMainModule, runCommandAsProcess, type Command } from './lib/command.js';
import { openScriptDatabase } from './lib/database.js';

const USAGE = `Usage: npm run season -- <command>
  list                                                     every season: current or closed, deadline, entries, winner
  new <year> --board FILE.csv [--order FILE.csv] [--deadline ISO] [--force]
      close the current season and open <year>: picks, results and the audit log start empty, the board is
      --board (columns rank,player_name,position,school[,band]), round one's order is --order (columns slot,team,
      every slot once; without it no slot has a team until set with npm run draft -- trade), groups, members and
      accounts stay. Deadline: --deadline, else DRAFT_DEADLINE if it is in <year>, else that year's draft night
      (last Thursday of April, 20:00 Eastern). --force closes a season whose round one is under way.`;

const isoDeadline = z.iso.datetime({ offset: true });

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (!value || value.startsWith('--')) throw new CommandFailure(`${name} needs a value.\n\n${USAGE}`);
  return value;
}

/** `npm run season -- <command> …`; the tests run it in-process (scripts/lib/command.ts). */
export const seasonCommand: Command = async ([command, ...args], io) => {
  if (!command || command === 'help' || command === '--help') {
    io.out(USAGE);
    return;
  }
  if (command !== 'list' && command !== 'new') throw new CommandFailure(`Unknown command "${command}".\n\n${USAGE}`);

  // Everything the command line says is checked before the database is opened: a refusal writes nothing.
  let newSeason: { year: number; board: ReturnType<typeof parseBoardText>; order: ReturnType<typeof parseOrderText> | null; deadline?: string; force: boolean } | undefined;
  if (command === 'new') {
    const year = parseWholeNumber(args[0]);
    if (year === null || year < 2000 || year > 2999) throw new CommandFailure(`The year must be a draft year, e.g. 2026.\n\n${USAGE}`);
    const file = option(args, '--board');
    if (!file) throw new CommandFailure(`Give the new season's board: --board FILE.csv\n\n${USAGE}`);
    const deadline = option(args, '--deadline');
    if (deadline !== undefined && !isoDeadline.safeParse(deadline).success) {
      throw new CommandFailure(`--deadline must be an ISO 8601 time with its offset, e.g. ${year}-04-23T20:00:00-04:00`);
    }
    const text = await fs.readFile(file, 'utf8').catch(() => {
      throw new CommandFailure(`Cannot read ${file}`);
    });
    let board;
    try {
      board = parseBoardText(text);
    } catch (error) {
      if (error instanceof DomainError) throw new CommandFailure(`Nothing was changed: ${file} is not a board.\n${error.message}`);
      throw error;
    }
    const orderFile = option(args, '--order');
    let order = null;
    if (orderFile) {
      const orderText = await fs.readFile(orderFile, 'utf8').catch(() => {
      throw new CommandFailure(`Cannot read ${orderFile}`);
    });
      try {
        order = parseOrderText(orderText);
      } catch (error) {
        if (error instanceof DomainError) throw new CommandFailure(`Nothing was changed: ${orderFile} is not a round-one order.\n${error.message}`);
        throw error;
      }
    }
    newSeason = { year, board, order, deadline, force: args.includes('--force') };
  }

  const db = await openScriptDatabase({ seedBoard: true, env: io.env });
  const em = db.orm.em.fork();
  try {
    if (newSeason) {
      const deadline = newSeason.deadline ? new Date(newSeason.deadline) : defaultSeasonDeadline(newSeason.year, db.config.DRAFT_DEADLINE);
      const result = await openSeason(em, draftSettings(db.config), {
        year: newSeason.year,
        board: newSeason.board,
        order: newSeason.order,
        deadline,
        force: newSeason.force,
        actor: `cli:${os.userInfo().username}`,
      });
      const { closed, opened } = result;
      io.out(`Closed the ${closed.year} season: final standings of ${closed.groups} group(s) kept (${closed.entries} global entries), ${closed.events} draft event(s) archived.`);
      io.out(`Opened the ${opened.year} season: ${opened.players} players on the board, its draft night ${opened.deadline.toISOString()}.`);
      if (!newSeason.order) io.out('No round-one order given (--order): no slot has a team until you set one (npm run draft -- trade <slot> <TEAM>).');
      if (db.config.deadline.getTime() !== opened.deadline.getTime()) {
        // The server's deadline is its configuration, read at start (docs/decisions.md, "Seasons").
        const configured = db.config.deadline.toISOString();
        io.out(
          opened.deadline.getTime() <= Date.now()
            ? `That time has passed: servers keep locking picks at their own deadline (${configured}, DRAFT_DEADLINE or the next draft night), so picks are open until then.`
            : `Servers lock picks at their configured deadline (now ${configured}): set DRAFT_DEADLINE=${opened.deadline.toISOString()} and restart them.`,
        );
      }
    } else {
      const lines = await seasonLines(em);
      for (const s of lines) {
        const state = s.current ? 'current' : 'closed';
        // The current season locks at the server's deadline (configuration), as GET /api/seasons says.
        const deadline = (s.current ? db.config.deadline : s.deadline)?.toISOString() ?? 'no deadline';
        const result = s.current
          ? ''
          : `\t${s.entries ?? 0} entries\t${s.winners.length > 0 ? `winner: ${s.winners.join(', ')} (${s.winningScore} hits)` : 'no winner'}`;
        io.out(`${s.year}\t${state}\t${deadline}${result}`);
      }
    }
  } catch (error) {
    if (error instanceof DomainError) throw new CommandFailure(`Nothing was changed: ${error.message}`);
    throw error;
  } finally {
    await db.close();
  }
};

if (isMainModule(import.meta.url)) runCommandAsProcess('season', seasonCommand);
