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
export async function operator(email = OPERATOR_EMAIL) {
  // A screen name per address (they are unique): DraftOperator, DraftDeputy, DraftSteward, …
  const local = email.split('@')[0]!;
  const session = await apiSession(email, email === OPERATOR_EMAIL ? 'DraftOperator' : `Draft${local[0]!.toUpperCase()}${local.slice(1)}`);
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
    undo: () => call('/draft/undo'),
    /** Gives a round-one slot to another team (a traded pick). */
    setTeam: (slot: number, team: string) => call('/draft/order', { slot, team }),
    completeRound: () => call('/draft/complete-round'),
    /** Marks the operator's first login done, so signing in through the UI shows no rules dialog. */
    skipFirstLoginRules: async () => {
      const res = await fetch(`${BASE_URL}/api/users/me/status`, { method: 'PATCH', headers: { authorization: `Bearer ${await session.token()}` } });
      if (!res.ok) throw new Error(`users/me/status failed: ${res.status}`);
    },
    resetDraft: () => call('/draft/reset'),
  };
}
