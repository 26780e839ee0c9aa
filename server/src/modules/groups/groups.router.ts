import {
  createGroupInput,
  createSimpleGroupInput,
  groupIdInput,
  groupOutput,
  groupsOutput,
  joinGroupInput,
  joinResultOutput,
  leaveResultOutput,
  memberCountOutput,
  membersOutput,
  membershipOutput,
  useGlobalPicksInput,
} from '@first-round/shared/schemas';
import { authedProcedure, groupMemberProcedure, router } from '../../trpc/trpc.js';
import * as groups from './groups.service.js';

export const groupsRouter = router({
  mine: authedProcedure.output(groupsOutput).query(({ ctx }) => groups.listUserGroups(ctx.em, ctx.participant.id)),
  publicGroups: authedProcedure.output(groupsOutput).query(({ ctx }) => groups.listPublicGroups(ctx.em, ctx.participant.id)),
  get: authedProcedure.input(groupIdInput).output(groupOutput).query(({ ctx, input }) => groups.getVisibleGroup(ctx.em, input.group_id, ctx.participant.id)),
  create: authedProcedure.input(createGroupInput).output(groupOutput).mutation(({ ctx, input }) => groups.createGroup(ctx.em, ctx.deps, ctx.participant.id, input)),
  createSimple: authedProcedure
    .input(createSimpleGroupInput)
    .output(groupOutput)
    .mutation(({ ctx, input }) => groups.createGroup(ctx.em, ctx.deps, ctx.participant.id, { name: input.name, is_public: false, picks_public: false })),
  join: authedProcedure.input(joinGroupInput).output(joinResultOutput).mutation(({ ctx, input }) => groups.joinGroup(ctx.em, ctx.deps, ctx.participant.id, input)),
  leave: authedProcedure.input(groupIdInput).output(leaveResultOutput).mutation(({ ctx, input }) => groups.leaveGroup(ctx.em, ctx.deps, ctx.participant.id, input.group_id)),
  memberCount: authedProcedure.input(groupIdInput).output(memberCountOutput).query(({ ctx, input }) => groups.memberCount(ctx.em, input.group_id, ctx.participant.id)),
  membership: authedProcedure.input(groupIdInput).output(membershipOutput).query(({ ctx, input }) => groups.getMembership(ctx.em, input.group_id, ctx.participant.id)),
  members: groupMemberProcedure.input(groupIdInput).output(membersOutput).query(({ ctx, input }) => groups.listMembers(ctx.em, input.group_id)),
  useGlobalPicks: groupMemberProcedure
    .input(useGlobalPicksInput)
    .output(membershipOutput)
    .mutation(({ ctx, input }) => groups.setUseGlobalPicks(ctx.em, ctx.deps, ctx.participant.id, input.group_id, input.use_global_picks)),
});

export type GroupsRouter = typeof groupsRouter;
