import { BASE_URL, OPERATOR_EMAIL } from './env';
import { apiSession } from './idp';

export interface Player {
  id: number;
  rank: number;
  player_name: string;
  position: string;
  school: string;
}

export async function listPlayers(): Promise<Player[]> {
  const res = await fetch(`${BASE_URL}/api/players/`);
  return (await res.json()) as Player[];
}

export async function playerId(name: string): Promise<number> {
  const player = (await listPlayers()).find((p) => p.player_name === name);
  if (!player) throw new Error(`No player named ${name}`);
  return player.id;
}

/** The draft-night operator (ADMIN_EMAILS), acting through the REST adapter. */
export async function operator() {
  const session = await apiSession(OPERATOR_EMAIL, 'DraftOperator');
  async function call(path: string, body?: unknown) {
    const res = await fetch(`${BASE_URL}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await session.token()}` },
      body: JSON.stringify(body ?? {}),
    });
    if (!res.ok) throw new Error(`${path} failed: ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  }
  return {
    startDraft: () => call('/draft/start'),
    recordPick: async (slot: number, name: string) => call('/draft/picks', { slot, player_id: await playerId(name) }),
    resetDraft: () => call('/draft/reset'),
  };
}
