import { asOfInput, playersOutput } from '@first-round/shared/schemas';
import { router } from '../../trpc/trpc.js';
import { hotRead, hotReadProcedureWithInput } from '../../trpc/hot-read.js';

/**
 * The big board, best first, with draft results once recorded. Public: the board is no secret. From the
 * versioned cache, validated against its schema once per version. With `before`, round one's results as
 * they were at the draft's last change before that moment (modules/draft/as-of.ts).
 */
export const readPlayers = hotRead({
  input: asOfInput,
  output: playersOutput,
  access: 'public',
  errors: ['BAD_REQUEST', 'CONFLICT'],
  run: (ctx, input) => (input?.before === undefined ? ctx.deps.players.list() : ctx.deps.draftAsOf.boardBefore(input.before)),
});

export const playersRouter = router({
  list: hotReadProcedureWithInput(readPlayers),
});
