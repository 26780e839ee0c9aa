import {
  createGroupInput,
  createSimpleGroupInput,
  draftBoardOutput,
  groupIdInput,
  groupOutput,
  groupsOutput,
  joinGroupInput,
  joinResultOutput,
  leaveResultOutput,
  memberCountOutput,
  membersOutput,
  membershipOutput,
  publicCountsOutput,
  setGroupPasswordInput,
  setMembersCanInviteInput,
  useGlobalPicksInput,
} from '@first-round/shared/schemas';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '@first-round/shared/messages';
import { authedProcedure, draftOpenProcedure, groupMemberProcedure, groupOwnerProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import { entryModeOf } from '@first-round/shared/entries';
import * as groups from './groups.service.js';
import { groupDraftBoard } from './draft-board.service.js';

/** Who is calling, with the EntityManager of this call: what every groups service takes. */
const caller = (ctx: { em: EntityManager; participant: { id: string } }) => ({ em: ctx.em, participantId: ctx.participant.id });

/** 'Group not found' (no such group, or a private one the caller is not in), and 429 past the address's budget of them. */
const GROUP_NOT_FOUND = ['NOT_FOUND', 'TOO_MANY_REQUESTS'] as const;

export const groupsRouter = router({
  mine: authedProcedure.output(groupsOutput).query(({ ctx }) => groups.listUserGroups(caller(ctx))),
  publicGroups: authedProcedure.output(groupsOutput).query(({ ctx }) => groups.listPublicGroups(caller(ctx))),
  get: authedProcedure.meta({ errors: GROUP_NOT_FOUND }).input(groupIdInput).output(groupOutput).query(({ ctx, input }) => groups.getVisibleGroup(caller(ctx), input.group_id)),
  create: draftOpenProcedure(authedProcedure.input(createGroupInput), MESSAGES.groupsLocked)
    .meta({ errors: ['CONFLICT'] })
    .output(groupOutput)
    .mutation(({ ctx, input }) => groups.createGroup(caller(ctx), input)),
  createSimple: draftOpenProcedure(authedProcedure.input(createSimpleGroupInput), MESSAGES.groupsLocked)
    .meta({ errors: ['CONFLICT'] })
    .output(groupOutput)
    .mutation(({ ctx, input }) => groups.createGroup(caller(ctx), { name: input.name, is_public: false, picks_public: false })),
  // A wrong password is FORBIDDEN, too many TOO_MANY_REQUESTS (with tries_left, lockout, retry_at); a public group after the start DRAFT_LOCKED.
  join: authedProcedure
    .meta({ errors: ['FORBIDDEN', 'NOT_FOUND', 'DRAFT_LOCKED', 'TOO_MANY_REQUESTS'] })
    .input(joinGroupInput)
    .output(joinResultOutput)
    .mutation(({ ctx, input }) => groups.joinGroup({ ...caller(ctx), now: ctx.deps.draft.now(), draft: ctx.deps.draft }, input)),
  // The global group cannot be left (BAD_REQUEST), nor a group by its owner while others remain (CONFLICT).
  leave: authedProcedure
    .meta({ errors: ['BAD_REQUEST', 'FORBIDDEN', 'CONFLICT', ...GROUP_NOT_FOUND] })
    .input(groupIdInput)
    .output(leaveResultOutput)
    .mutation(({ ctx, input }) => groups.leaveGroup({ ...caller(ctx) }, input.group_id)),
  memberCount: authedProcedure.meta({ errors: GROUP_NOT_FOUND }).input(groupIdInput).output(memberCountOutput).query(({ ctx, input }) => groups.memberCount(caller(ctx), input.group_id)),
  membership: authedProcedure.meta({ errors: GROUP_NOT_FOUND }).input(groupIdInput).output(membershipOutput).query(({ ctx, input }) => groups.getMembership(caller(ctx), input.group_id)),
  members: groupMemberProcedure.input(groupIdInput).output(membersOutput).query(({ ctx, input }) => groups.listMembers(ctx.em, input.group_id)),
  /** Round one as it fills, with who had whom and who is waiting on whom: members only, after the start (409 before). */
  draftBoard: groupMemberProcedure.meta({ errors: ['CONFLICT'] }).input(groupIdInput).output(draftBoardOutput).query(({ ctx }) => groupDraftBoard(ctx.deps, ctx.em, ctx.membership)),
  useGlobalPicks: draftOpenProcedure(groupMemberProcedure.input(useGlobalPicksInput), MESSAGES.picksLocked)
    .output(membershipOutput)
    .mutation(({ ctx, input }) =>
      groups.setEntryMode({ ...caller(ctx), draft: ctx.deps.draft }, input.group_id, entryModeOf(input.use_global_picks)),
    ),
  /** Owners only (the middleware answers 403 to anyone else); allowed before and after the start. */
  setPassword: groupOwnerProcedure
    .input(setGroupPasswordInput)
    .output(groupOutput)
    .mutation(({ ctx, input }) => groups.setGroupPassword({ em: ctx.em }, input.group_id, input.password)),
  /** Whether members may invite: owners only (403 to anyone else), before and after the start. */
  setMembersCanInvite: groupOwnerProcedure
    .input(setMembersCanInviteInput)
    .output(groupOutput)
    .mutation(({ ctx, input }) => groups.setMembersCanInvite({ em: ctx.em }, input.group_id, input.members_can_invite)),
  /** The landing page's counts, for visitors too: counted at most once a minute per instance. */
  publicCounts: publicProcedure.output(publicCountsOutput).query(({ ctx }) => ctx.deps.publicCounts.get()),
});

