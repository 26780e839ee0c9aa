import { playersOutput } from '@first-round/shared/schemas';
import { router } from '../../trpc/trpc.js';
import { hotRead, hotReadProcedure } from '../../trpc/hot-read.js';

/**
 * The big board, best first, with draft results once recorded. Public: the board is no secret. From the
 * versioned cache, validated against its schema once per version.
 */
export const readPlayers = hotRead({ input: undefined, output: playersOutput, access: 'public', run: (ctx) => ctx.deps.players.list() });

export const playersRouter = router({
  list: hotReadProcedure(readPlayers),
});
