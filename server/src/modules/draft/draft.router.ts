import { z } from 'zod';
import {
  asOfInput,
  draftChange,
  draftChangesInput,
  draftEventsOutput,
  draftStatusOutput,
  nextUndoOutput,
  publicChangesInput,
  recordPickInput,
  setTeamInput,
  standingsMine,
  standingsPage,
  standingsUpdate,
} from '@first-round/shared/schemas';
import { adminProcedure, authedProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import { hotRead, hotReadProcedureWithInput } from '../../trpc/hot-read.js';
import * as draft from './draft.service.js';

/** The operator's changes run as the signed-in admin's e-mail, which the audit log records. */
export const actorOf = (ctx: { participant: { email: string | null; id: string } }) => ctx.participant.email ?? ctx.participant.id;

/**
 * The operator's changes. As one commits, this process's caches made from the draft are stale at once
 * (the service publishes it, events/topic-bus.ts): standings read right after a recorded pick count it.
 */
export const operatorChange = adminProcedure;

/**
 * Read by every open page: from the versioned cache, validated against its schema once per version. With
 * `before`, as it was at the draft's last change before that moment (as-of.ts; 400 for a moment to come).
 */
export const readDraftStatus = hotRead({
  input: asOfInput,
  output: draftStatusOutput,
  access: 'public',
  errors: ['BAD_REQUEST', 'CONFLICT'],
  run: (ctx, input) => (input?.before === undefined ? ctx.deps.draftStatus.status() : ctx.deps.draftAsOf.statusBefore(input.before)),
});

/** An operator's change answers the change as logged and announced (`output` documents it: the service builds it). */
const CHANGE = { output: draftChange } as const;

/** The `draft` namespace's own procedures; the feed's join them there (trpc/root.ts). */
export const draftProcedures = {
  status: hotReadProcedureWithInput(readDraftStatus),
  start: operatorChange.meta({ ...CHANGE, errors: ['CONFLICT'] }).mutation(({ ctx }) => draft.startDraft(ctx.em, ctx.deps.draft, actorOf(ctx))),
  // A slot outside round one is BAD_REQUEST; an unknown player NOT_FOUND; before the start, a filled slot, a drafted player, round one complete CONFLICT.
  recordPick: operatorChange
    .meta({ ...CHANGE, errors: ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT'] })
    .input(recordPickInput)
    .mutation(({ ctx, input }) => draft.recordPick(ctx.em, ctx.deps.draft, actorOf(ctx), input.slot, input.player_id)),
  undo: operatorChange.meta({ ...CHANGE, errors: ['CONFLICT'] }).mutation(({ ctx }) => draft.undoLast(ctx.em, actorOf(ctx))),
  /** What undo would take back now (the console says it before the operator confirms). */
  nextUndo: adminProcedure.output(nextUndoOutput).query(async ({ ctx }) => ({ change: await draft.nextUndo(ctx.em) })),
  /** A traded pick: the slot's new team (round one's order, docs/decisions.md "Teams on the clock"). */
  setTeam: operatorChange
    .meta({ ...CHANGE, errors: ['BAD_REQUEST', 'CONFLICT'] })
    .input(setTeamInput)
    .mutation(({ ctx, input }) => draft.setSlotTeam(ctx.em, ctx.deps.draft, actorOf(ctx), input.slot, input.team)),
  completeRound: operatorChange.meta({ ...CHANGE, errors: ['CONFLICT'] }).mutation(({ ctx }) => draft.completeRoundOne(ctx.em, ctx.deps.draft, actorOf(ctx))),
  reset: operatorChange.meta(CHANGE).mutation(({ ctx }) => draft.resetDraft(ctx.em, actorOf(ctx))),
  /**
   * Live draft changes (live-stream.ts). The browser reads them through the SSE route in front of tRPC
   * (wire/sse-route.ts), which calls this very procedure for its checks and its stream; the browser passes its
   * token in `connectionParams`.
   */
  changes: authedProcedure
    // Each message: a change, or (when the input names a standings page) that page re-ranked after it. At most 20 streams per player.
    .meta({ output: z.union([draftChange, standingsMine, standingsPage]), errors: ['TOO_MANY_REQUESTS'] })
    .input(draftChangesInput)
    .subscription(({ ctx, input, signal }) => ctx.deps.live.subscribe(ctx.participant.id, input, signal)),
  /**
   * The spectators' live stream (public-live-stream.ts): every change and after each the public top 100
   * (leaderboard.public's answer). No sign-in; at most MAX_PUBLIC_STREAMS_PER_IP per address and
   * MAX_PUBLIC_STREAMS per instance; 404 with PUBLIC_STANDINGS=false. The browser reads it through the
   * same SSE route as draft.changes (wire/sse-route.ts).
   */
  publicChanges: publicProcedure
    .meta({ output: z.union([draftChange, standingsUpdate]), errors: ['NOT_FOUND', 'TOO_MANY_REQUESTS'] })
    .input(publicChangesInput)
    .subscription(({ ctx, input, signal }) => ctx.deps.publicLive.subscribe(ctx.ip, input, signal)),
  auditLog: adminProcedure.output(draftEventsOutput).query(({ ctx }) => draft.recentDraftEvents(ctx.em)),
};

/** The draft's own procedures as a router (wire/sse-route.ts calls its streams). */
export const draftRouter = router(draftProcedures);
