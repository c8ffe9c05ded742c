import { randomUUID } from 'node:crypto';
import type { Actor, GroupLiveState } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { onCallService } from '../notifications/on-call.service.js';
import { notifyWearerUpdated } from '../../bus/wearer-updates.js';
import { ApiError, conflict } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { groupsRepository } from './groups.repository.js';

const byName = new Intl.Collator('ja');
const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);

const nameTaken = (name: string) =>
  conflict(`name: the organisation already has a group named ${name}`, 'GROUP_NAME_TAKEN');

/** Groups of an organisation: create, rename, delete when empty, their live state, and their wearers. */
export function groupsService(ctx: AppContext) {
  const repo = groupsRepository(ctx.db);
  const access = accessService(ctx.db);

  return {
    async create(actor: Actor, body: { clientId: string; name: string }) {
      await access.require(actor, 'group:manage', 'organization', body.clientId);
      const id = `grp-${randomUUID()}`;
      await ctx.db.transaction(async (tx) => {
        // A taken name ends the transaction at once (on PostgreSQL the failed INSERT aborted it).
        if (
          !(await groupsRepository(tx).insert(
            { id, organizationId: body.clientId, name: body.name },
            ctx.now(),
          ))
        )
          throw nameTaken(body.name);
        await auditService(tx).record({
          organizationId: body.clientId,
          actorId: actor.uid,
          kind: 'group.change',
          targetId: id,
          before: null,
          after: { name: body.name },
        });
      });
      return { id, clientId: body.clientId, name: body.name };
    },

    async rename(actor: Actor, groupId: string, name: string) {
      const at = await access.require(actor, 'group:manage', 'group', groupId);
      await ctx.db.transaction(async (tx) => {
        const txRepo = groupsRepository(tx);
        const before = await txRepo.find(groupId);
        if (!(await txRepo.rename(groupId, name))) throw nameTaken(name);
        await auditService(tx).record({
          organizationId: at.organizationId,
          actorId: actor.uid,
          kind: 'group.change',
          targetId: groupId,
          before: { name: before?.name ?? null },
          after: { name },
        });
      });
      return { id: groupId, clientId: at.organizationId, name };
    },

    /** 409 GROUP_NOT_EMPTY while wearers are in it: they are moved first (POST .../wearers/move). */
    async remove(actor: Actor, groupId: string): Promise<void> {
      const at = await access.require(actor, 'group:manage', 'group', groupId);
      await ctx.db.transaction(async (tx) => {
        const txRepo = groupsRepository(tx);
        const before = await txRepo.find(groupId);
        if ((await txRepo.deleteIfEmpty(groupId)) === 'not-empty') {
          throw conflict(
            `Group ${groupId} still has wearers; move them to another group first`,
            'GROUP_NOT_EMPTY',
          );
        }
        await auditService(tx).record({
          organizationId: at.organizationId,
          actorId: actor.uid,
          kind: 'group.change',
          targetId: groupId,
          before: { name: before?.name ?? null },
          after: null,
        });
      });
    },

    /** The groups the actor may read, with wearers, not worn, offline, open alerts and gateways. */
    async liveStates(actor: Actor, organizationId: string): Promise<GroupLiveState[]> {
      await access.require(actor, 'group:read', 'organization', organizationId);
      const [rows, alerts, gateways, onCall] = await Promise.all([
        repo.liveStates(organizationId, ctx.now()),
        repo.openAlertCounts(organizationId),
        repo.gatewayCounts(organizationId),
        onCallService(ctx).organizationNow(organizationId),
      ]);
      return rows
        .filter((g) => access.may(actor, 'group:read', { organizationId, groupIds: [g.id] }))
        .sort((a, b) => byName.compare(a.name, b.name) || (a.id < b.id ? -1 : 1))
        .map((g) => ({
          id: g.id,
          clientId: g.organizationId,
          name: g.name,
          wearerCount: g.wearerCount,
          notWornCount: g.notWornCount,
          offlineCount: g.offlineCount,
          openAlertCount: alerts.get(g.id) ?? 0,
          gatewayCount: gateways.get(g.id) ?? 0,
          onCall: onCall.get(g.id) ?? null,
        }));
    },

    /** Moves wearers of the group's organisation into it, all or nothing. */
    async moveWearers(actor: Actor, groupId: string, uids: string[]) {
      const target = await access.require(actor, 'wearer:manage', 'group', groupId);
      const wearers = await access.requireAll(actor, 'wearer:manage', 'wearer', uids);
      uids.forEach((uid, i) => {
        if (wearers.get(uid)!.organizationId !== target.organizationId)
          throw invalid(`body.uids.${i}`, `wearer ${uid} is not in this group's organisation`);
      });
      const moved = await ctx.db.transaction(async (tx) => {
        const n = await groupsRepository(tx).moveWearers([...new Set(uids)], groupId);
        for (const uid of new Set(uids)) {
          const from = wearers.get(uid)!.groupIds?.[0] ?? null;
          if (from !== groupId) {
            await auditService(tx).record({
              organizationId: target.organizationId,
              actorId: actor.uid,
              kind: 'wearer.update',
              targetId: uid,
              before: { groupId: from },
              after: { groupId },
            });
          }
        }
        return n;
      });
      for (const uid of new Set(uids)) {
        for (const groupIdNow of [wearers.get(uid)!.groupIds?.[0] ?? null, groupId])
          notifyWearerUpdated(ctx, {
            organizationId: target.organizationId,
            groupId: groupIdNow,
            wearerId: uid,
          });
      }
      return { groupId, moved };
    },
  };
}
export type GroupsService = ReturnType<typeof groupsService>;
