import { playersOutput } from '@first-round/shared/schemas';
import { publicProcedure, router } from '../../trpc/trpc.js';
import { listPlayers } from './players.service.js';

export const playersRouter = router({
  /** The big board, best first, with draft results once recorded. Public: the board is no secret. */
  list: publicProcedure.output(playersOutput).query(({ ctx }) => listPlayers(ctx.em)),
});
