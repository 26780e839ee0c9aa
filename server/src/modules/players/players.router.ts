import { playersOutput } from '@first-round/shared/schemas';
import { publicProcedure, router } from '../../trpc/trpc.js';

export const playersRouter = router({
  /**
   * The big board, best first, with draft results once recorded. Public: the board is no secret. From
   * the versioned cache, validated against its schema once per version.
   */
  list: publicProcedure.meta({ output: playersOutput }).query(({ ctx }) => ctx.deps.players.list()),
});
