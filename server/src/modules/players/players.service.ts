import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlayerDto } from '@first-round/shared/schemas';
import { sql } from '../../db/sql.js';

export async function listPlayers(em: EntityManager): Promise<PlayerDto[]> {
  return sql<PlayerDto>(em, `select id, rank, player_name, position, school, draft_round, draft_pick from player order by rank asc`);
}
