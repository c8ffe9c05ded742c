import {
  type Actor,
  type changeMemberRoleBody,
  mayGrant,
  type Member,
  type MembersQuery,
  type MembersResponse,
  type Permission,
} from '@wearable/domain';
import type { z } from 'zod';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { ApiError } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { invitationsService } from '../invitations/invitations.service.js';
import { membersRepository } from './members.repository.js';

type ChangeRole = z.output<typeof changeMemberRoleBody>;

const memberNotFound = (uid: string) =>
  new ApiError(404, 'MEMBER_NOT_FOUND', `Member ${uid} not found`);
const fieldError = (status: number, code: string, path: string, message: string) =>
  new ApiError(status, code, `${path}: ${message}`, [{ path, message }]);
const lastOwner = () =>
  new ApiError(
    409,
    'LAST_OWNER',
    'An organisation keeps at least one owner: make someone else owner first',
  );

/**
 * An organisation's staff (/settings/admins): the list, role changes within the roles the actor may grant,
 * group managers' groups, removal. Owners are counted under a lock on the organisation, so no sequence of
 * concurrent changes leaves it without one.
 */
export function membersService(ctx: AppContext) {
  const repo = membersRepository(ctx.db);
  const access = accessService(ctx.db);
  const invitations = invitationsService(ctx);

  /** The staff member the actor may do `permission` on, and whose current role the actor may grant. */
  async function target(actor: Actor, permission: Permission, uid: string, clientId?: string) {
    const at = await access.require(actor, permission, 'member', uid);
    if (clientId && clientId !== at.organizationId) throw memberNotFound(uid);
    const member = await repo.findStaff(uid);
    if (!member) throw memberNotFound(uid);
    if (!mayGrant(actor, member.role)) {
      throw new ApiError(
        403,
        'ROLE_NOT_GRANTABLE',
        `Your role may not change a member whose role is ${member.role}`,
      );
    }
    return member;
  }

  /** Groups must be ones the actor reaches, in the member's organisation. */
  async function requireGroups(
    actor: Actor,
    organizationId: string,
    groupIds: string[],
    path: string,
  ) {
    const groups = await access.requireAll(actor, 'member:changeRole', 'group', groupIds);
    for (const [groupId, at] of groups) {
      if (at.organizationId !== organizationId) {
        throw fieldError(
          400,
          'VALIDATION_FAILED',
          path,
          `group ${groupId} is not in the member's organisation`,
        );
      }
    }
  }

  /** Runs a change to an organisation's staff under its lock; refuses it if no owner would be left. */
  async function underOwnerLock(
    organizationId: string,
    change: (tx: ReturnType<typeof membersRepository>) => Promise<void>,
    audit: (tx: Queryable) => Promise<void>,
  ) {
    await ctx.db.transaction(async (tx: Queryable) => {
      const txRepo = membersRepository(tx);
      await txRepo.lockOrganization(organizationId);
      await change(txRepo);
      if ((await txRepo.countOwners(organizationId)) === 0) throw lastOwner();
      await audit(tx);
    });
  }
  /** What the audit log keeps of a member: role and groups. */
  const shape = (m: Pick<Member, 'role' | 'groups'>) => ({
    role: m.role,
    groupIds: m.groups.map((g) => g.id),
  });

  async function current(uid: string): Promise<Member> {
    const member = await repo.findStaff(uid);
    if (!member) throw memberNotFound(uid);
    const { organizationId: _, ...shown } = member;
    return shown;
  }

  return {
    async listMembers(actor: Actor, query: MembersQuery): Promise<MembersResponse> {
      const organizationId = query.clientId ?? actor.organizationId;
      if (!organizationId)
        throw fieldError(
          400,
          'VALIDATION_FAILED',
          'querystring.clientId',
          'required for platform staff',
        );
      await access.require(actor, 'member:read', 'organization', organizationId);
      const q = query.q || undefined;
      const [page, pending] = await Promise.all([
        repo.listStaff(organizationId, q, query.pageSize, (query.page - 1) * query.pageSize),
        invitations.listForOrganization(organizationId, q),
      ]);
      return { ...page, page: query.page, pageSize: query.pageSize, invitations: pending };
    },

    async changeRole(actor: Actor, body: ChangeRole): Promise<Member> {
      const member = await target(actor, 'member:changeRole', body.uid, body.clientId);
      if (!mayGrant(actor, body.role)) {
        throw new ApiError(
          403,
          'ROLE_NOT_GRANTABLE',
          `body.role: your role may not grant ${body.role}`,
        );
      }
      await requireGroups(actor, member.organizationId, body.groupIds, 'body.groupIds');
      await underOwnerLock(
        member.organizationId,
        async (tx) => {
          await tx.setRole(body.uid, body.role);
          await tx.replaceManagedGroups(body.uid, body.groupIds);
        },
        (tx) =>
          auditService(tx).record({
            organizationId: member.organizationId,
            actorId: actor.uid,
            kind: 'member.roleChange',
            targetId: body.uid,
            before: shape(member),
            after: { role: body.role, groupIds: [...new Set(body.groupIds)] },
          }),
      );
      return current(body.uid);
    },

    async remove(
      actor: Actor,
      uid: string,
      clientId?: string,
    ): Promise<{ uid: string; removed: true }> {
      const member = await target(actor, 'member:remove', uid, clientId);
      await underOwnerLock(
        member.organizationId,
        (tx) => tx.removeStaff(uid, ctx.now()),
        (tx) =>
          auditService(tx).record({
            organizationId: member.organizationId,
            actorId: actor.uid,
            kind: 'member.remove',
            targetId: uid,
            before: { name: member.name, mail: member.mail, ...shape(member) },
            after: null,
          }),
      );
      return { uid, removed: true };
    },

    /** The groups a group manager manages: all of them (set), one more (link) or one fewer (unlink). */
    async setGroups(actor: Actor, uid: string, groupIds: string[]): Promise<Member> {
      return changeGroups(actor, uid, groupIds, 'body.groupIds', (tx) =>
        tx.replaceManagedGroups(uid, groupIds),
      );
    },
    async linkGroup(actor: Actor, uid: string, groupId: string): Promise<Member> {
      return changeGroups(actor, uid, [groupId], 'body.groupId', (tx) =>
        tx.addManagedGroups(uid, [groupId]),
      );
    },
    async unlinkGroup(actor: Actor, uid: string, groupId: string): Promise<Member> {
      return changeGroups(actor, uid, [groupId], 'body.groupId', async (tx) => {
        if ((await tx.removeManagedGroup(uid, groupId)) === 0) {
          throw fieldError(
            409,
            'LAST_GROUP',
            'body.groupId',
            'a group manager keeps at least one group; change their role instead',
          );
        }
      });
    },
  };

  async function changeGroups(
    actor: Actor,
    uid: string,
    groupIds: string[],
    path: string,
    change: (tx: ReturnType<typeof membersRepository>) => Promise<void>,
  ): Promise<Member> {
    const member = await target(actor, 'member:changeRole', uid);
    if (!(await repo.isGroupManager(uid))) {
      throw new ApiError(
        409,
        'NOT_A_GROUP_MANAGER',
        'Only a group manager (ORGANIZATION_GROUP) has groups; change the role first',
      );
    }
    await requireGroups(actor, member.organizationId, groupIds, path);
    await ctx.db.transaction(async (tx: Queryable) => {
      await change(membersRepository(tx));
      const after = await membersRepository(tx).findStaff(uid);
      await auditService(tx).record({
        organizationId: member.organizationId,
        actorId: actor.uid,
        kind: 'member.groups',
        targetId: uid,
        before: { groupIds: member.groups.map((g) => g.id) },
        after: { groupIds: (after?.groups ?? []).map((g) => g.id) },
      });
    });
    return current(uid);
  }
}
