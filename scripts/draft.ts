// The draft operator's command: `npm run draft -- <command>`. Works against the same database as a running
// server (embedded or DATABASE_URL); every change is announced with NOTIFY, so open pages update at once.
import os from 'node:os';
import { parseWholeNumber } from '@first-round/shared/ids';
import { describeDraftChange } from '@first-round/shared/draft-words';
import { onTheClockLabel, slotOnTheClock, teamName } from '@first-round/shared/teams';
import type { DraftChange } from '@first-round/shared/schemas';
import { DomainError } from '../server/src/errors.js';
import * as draft from '../server/src/modules/draft/draft.service.js';
import { replayRoundOne2025 } from '../server/src/modules/draft/replay.js';
import { roundOneSelections, searchPlayers } from '../server/src/modules/players/players.repository.js';
import { describeFeedStatus, feedStatus } from '../server/src/modules/feed/feed.service.js';
import { CommandFailure, isMainModule, runCommandAsProcess, type Command } from './lib/command.js';
import { openScriptDatabase } from './lib/database.js';

const USAGE = `Usage: npm run draft -- <command>
  status                       where the draft stands
  start                        start the draft now (picks lock)
  record <slot> <player id>    record a round-one selection
  trade <slot> <TEAM>          give a round-one slot to another team (a traded pick; TEAM: SEA, KC, …)
  order                        round one's order: every slot's team, and who was taken there
  undo                         undo the last change (the "complete" mark, the latest pick or the latest team change)
  complete-round               mark round one complete
  reset                        back to before the draft (clears all results)
  find <text>                  look up player ids by name or school
  log                          the audit log
  replay-2025 [--interval S]   replay the real 2025 round one, S seconds apart (default 0)`;

/** What the operator reads: the same words as the console's audit log. */
const describe = (change: DraftChange) => describeDraftChange(change, 'operator').title;

function integer(value: string | undefined, name: string): number {
  const n = parseWholeNumber(value);
  if (n === null) throw new CommandFailure(`${name} must be a whole number.\n\n${USAGE}`);
  return n;
}

/** `npm run draft -- <command> …`; the tests run it in-process (scripts/lib/command.ts). */
export const draftCommand: Command = async ([command, ...args], io) => {
  if (!command || command === 'help' || command === '--help') {
    io.out(USAGE);
    return;
  }
  const known = ['status', 'start', 'record', 'trade', 'order', 'undo', 'complete-round', 'reset', 'find', 'log', 'replay-2025'];
  if (!known.includes(command)) throw new CommandFailure(`Unknown command "${command}".\n\n${USAGE}`);

  const db = await openScriptDatabase({ seedBoard: true, env: io.env });
  const em = db.orm.em.fork();
  const settings = draft.draftSettings(db.config);
  const actor = `cli:${os.userInfo().username}`;
  try {
    switch (command) {
      case 'status': {
        const s = await draft.getDraftStatus(em, settings);
        io.out(`Started: ${s.draftHasStarted ? `yes${s.started_at ? ` (at ${s.started_at})` : ' (deadline passed)'}` : 'no'}`);
        io.out(`Deadline: ${s.deadline}`);
        io.out(`Round one: ${s.picks_made} of ${s.round_one_picks} picks recorded${s.round_one_complete ? ', complete' : ''}`);
        const teams = new Map(s.round_one_order.map((o) => [o.slot, o.team]));
        const taken = await roundOneSelections(em);
        for (const p of taken) io.out(`  ${String(p.draftPick).padStart(2)}. ${(teams.get(p.draftPick!) ?? '—').padEnd(3)}  ${p.playerName}, ${p.position}, ${p.school}`);
        const clock = s.draftHasStarted && !s.round_one_complete ? slotOnTheClock(taken.map((p) => p.draftPick!), s.round_one_picks) : null;
        if (clock !== null) io.out(`  ${onTheClockLabel(clock, teams.get(clock))}`);
        for (const line of describeFeedStatus(await feedStatus(em, db.config, new Date()))) io.out(line);
        break;
      }
      case 'start':
        io.out(describe(await draft.startDraft(em, settings, actor)));
        break;
      case 'record':
        io.out(describe(await draft.recordPick(em, settings, actor, integer(args[0], 'slot'), integer(args[1], 'player id'))));
        break;
      case 'trade': {
        const slot = integer(args[0], 'slot');
        if (!args[1]) throw new CommandFailure(`Give the slot's new team, e.g. npm run draft -- trade ${slot} SEA\n\n${USAGE}`);
        io.out(describe(await draft.setSlotTeam(em, settings, actor, slot, args[1])));
        break;
      }
      case 'order': {
        const s = await draft.getDraftStatus(em, settings);
        const taken = new Map((await roundOneSelections(em)).map((p) => [p.draftPick, p]));
        for (const { slot, team } of s.round_one_order) {
          const p = taken.get(slot);
          io.out(`${slot}. ${(team ?? '—').padEnd(3)}  ${teamName(team) ?? 'no team set'}${p ? `\t${p.playerName}, ${p.position}, ${p.school}` : ''}`);
        }
        break;
      }
      case 'undo':
        io.out(describe(await draft.undoLast(em, actor)));
        break;
      case 'complete-round':
        io.out(describe(await draft.completeRoundOne(em, settings, actor)));
        break;
      case 'reset':
        io.out(describe(await draft.resetDraft(em, actor)));
        break;
      case 'find': {
        const text = args.join(' ').trim();
        if (!text) throw new CommandFailure('Give part of a name or school, e.g. npm run draft -- find ward');
        const found = await searchPlayers(em, text);
        if (found.length === 0) io.out('No player matches.');
        for (const p of found) io.out(`id ${p.id}\t#${p.rank}\t${p.playerName}, ${p.position}, ${p.school}${p.draftPick ? `\t(taken at ${p.draftPick})` : ''}`);
        break;
      }
      case 'log':
        for (const e of await draft.recentDraftEvents(em, 50)) {
          const teams = e.kind === 'team' || e.kind === 'undo_team' ? ` ${e.team ?? '—'} (was ${e.team_before ?? '—'})` : '';
          io.out(`${e.created_at}\t${e.actor}\t${e.kind}${e.slot ? ` ${e.slot}` : ''}${e.player_name ? ` ${e.player_name}` : ''}${teams}`);
        }
        break;
      case 'replay-2025': {
        const at = args.indexOf('--interval');
        const seconds = at >= 0 ? Number(args[at + 1]) : 0;
        if (!Number.isFinite(seconds) || seconds < 0) throw new CommandFailure('--interval takes a number of seconds, e.g. --interval 5');
        const recorded = await replayRoundOne2025(em, settings, actor, {
          intervalMs: seconds * 1000,
          onChange: (change) => io.out(describe(change)),
        });
        io.out(`Replayed ${recorded} pick(s).`);
        break;
      }
    }
  } catch (error) {
    if (error instanceof DomainError) throw new CommandFailure(error.message);
    throw error;
  } finally {
    await db.close();
  }
};

if (isMainModule(import.meta.url)) runCommandAsProcess('draft', draftCommand);
