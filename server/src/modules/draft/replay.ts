import fs from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DraftChange } from '@first-round/shared/schemas';
import { conflict } from '../../errors.js';
import { fromRoot } from '../../paths.js';
import { playerAtRoundOneSlot, playersNamed } from '../players/players.repository.js';
import { getDraftStatus, recordPick, setSlotTeam, startDraft, type DraftSettings } from './draft.service.js';

export const ROUND_ONE_2025_FILE = fromRoot('shared/data/round-one-2025.json');

interface RoundOneFile {
  season: number;
  picks: { slot: number; player_name: string; position: string; school: string; team: string }[];
}

/** The real 2025 round one as (slot, player id, team) of the current board; names not on it are refused. */
export async function loadRoundOne2025(em: EntityManager): Promise<{ slot: number; playerId: number; name: string; team: string }[]> {
  const file = JSON.parse(await fs.readFile(ROUND_ONE_2025_FILE, 'utf8')) as RoundOneFile;
  const onBoard = await playersNamed(em, file.picks.map((p) => p.player_name));
  const byName = new Map(onBoard.map((p) => [p.playerName.toLowerCase(), p.id]));
  return file.picks.map((p) => {
    const playerId = byName.get(p.player_name.toLowerCase());
    if (!playerId) throw conflict(`${p.player_name} (round-one pick ${p.slot}) is not on the current board`);
    return { slot: p.slot, playerId, name: p.player_name, team: p.team };
  });
}

/**
 * Replays the 2025 round one into the draft state: starts the draft if needed, then records every slot
 * not yet filled, waiting `intervalMs` between picks. Slots already holding the right player are kept, so
 * an interrupted replay can be resumed. A slot whose team differs from the team that made the pick is
 * given back to it first (a team change, as the feed reports a traded pick).
 */
export async function replayRoundOne2025(
  em: EntityManager,
  settings: DraftSettings,
  actor: string,
  options: { intervalMs?: number; onChange?: (change: DraftChange) => void; limit?: number } = {},
): Promise<number> {
  const picks = (await loadRoundOne2025(em)).filter((p) => p.slot <= settings.roundOnePicks).slice(0, options.limit);
  const status = await getDraftStatus(em, settings);
  // Each write is awaited on its own statement, never as the argument of `onChange?.(…)`: an optional
  // call skips evaluating its arguments when there is no callback, and the write would silently not run.
  if (!status.started_at) {
    const started = await startDraft(em, settings, actor);
    options.onChange?.(started);
  }
  let recorded = 0;
  const teams = new Map(status.round_one_order.map((o) => [o.slot, o.team]));
  for (const pick of picks) {
    if (teams.get(pick.slot) !== pick.team) {
      const traded = await setSlotTeam(em, settings, actor, pick.slot, pick.team);
      options.onChange?.(traded);
    }
    const current = await playerAtRoundOneSlot(em, pick.slot);
    if (current?.id === pick.playerId) continue;
    if (recorded > 0 && options.intervalMs) await new Promise((r) => setTimeout(r, options.intervalMs));
    const change = await recordPick(em, settings, actor, pick.slot, pick.playerId);
    recorded++;
    options.onChange?.(change);
  }
  return recorded;
}
