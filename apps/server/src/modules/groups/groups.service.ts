import { randomUUID } from 'node:crypto';
import type { Actor, GroupLiveState } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { notifyWearerUpdated } from '../../engine/wearer-updates.js';
import { ApiError, conflict } from '../../errors.js';
import { groupsRepository } from './groups.repository.js';

const byName = new Intl.Collator('ja');
const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);

const nameTaken = (name: string) => conflict(`name: the organisation already has a group named ${name}`, 'GROUP_NAME_TAKEN');

/** Groups of an organisation: create, rename, delete when empty, their live state, and their wearers. */
export function groupsService(ctx: AppContext) {
  const repo = groupsRepository(ctx.db);
  const access = accessService(ctx.db);

  return {
    async create(actor: Actor, body: { clientId: string; name: string }) {
      await access.require(actor, 'group:manage', 'organization', body.clientId);
      const id = `grp-${randomUUID()}`;
      if (!(await repo.insert({ id, organizationId: body.clientId, name: body.name }, ctx.now()))) throw nameTaken(body.name);
      return { id, clientId: body.clientId, name: body.name };
    },

    async rename(actor: Actor, groupId: string, name: string) {
      const at = await access.require(actor, 'group:manage', 'group', groupId);
      if (!(await repo.rename(groupId, name))) throw nameTaken(name);
      return { id: groupId, clientId: at.organizationId, name };
    },

    /** 409 GROUP_NOT_EMPTY while wearers are in it: they are moved first (POST .../wearers/move). */
    async remove(actor: Actor, groupId: string): Promise<void> {
      await access.require(actor, 'group:manage', 'group', groupId);
      if ((await repo.deleteIfEmpty(groupId)) === 'not-empty') {
        throw conflict(`Group ${groupId} still has wearers; move them to another group first`, 'GROUP_NOT_EMPTY');
      }
    },

    /** The groups the actor may read, with wearers, not worn, offline, open alerts and gateways. */
    async liveStates(actor: Actor, organizationId: string): Promise<GroupLiveState[]> {
      await access.require(actor, 'group:read', 'organization', organizationId);
      const [rows, alerts, gateways] = await Promise.all([
        repo.liveStates(organizationId, ctx.now()),
        repo.openAlertCounts(organizationId),
        repo.gatewayCounts(organizationId),
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
        }));
    },

    /** A wearer (no console account) in the group; their bracelet is linked afterwards. */
    async createWearer(actor: Actor, groupId: string, body: { name: string; birthDate?: string | undefined }) {
      const at = await access.require(actor, 'wearer:manage', 'group', groupId);
      const birthDate = body.birthDate ?? null;
      if (birthDate && birthDate > ctx.now().toISOString().slice(0, 10)) throw invalid('body.birthDate', 'must not be in the future');
      if (birthDate && birthDate < '1900-01-01') throw invalid('body.birthDate', 'must be 1900-01-01 or later');
      const uid = `usr-${randomUUID()}`;
      await repo.insertWearer({ id: uid, organizationId: at.organizationId, groupId, name: body.name, birthDate }, ctx.now());
      notifyWearerUpdated(ctx, { organizationId: at.organizationId, groupId, wearerId: uid });
      return { uid, name: body.name, clientId: at.organizationId, groupId, birthDate };
    },

    /** Moves wearers of the group's organisation into it, all or nothing. */
    async moveWearers(actor: Actor, groupId: string, uids: string[]) {
      const target = await access.require(actor, 'wearer:manage', 'group', groupId);
      const wearers = await access.requireAll(actor, 'wearer:manage', 'wearer', uids);
      uids.forEach((uid, i) => {
        if (wearers.get(uid)!.organizationId !== target.organizationId)
          throw invalid(`body.uids.${i}`, `wearer ${uid} is not in this group's organisation`);
      });
      const moved = await ctx.db.transaction((tx) => groupsRepository(tx).moveWearers([...new Set(uids)], groupId));
      for (const uid of new Set(uids)) {
        for (const groupIdNow of [wearers.get(uid)!.groupIds?.[0] ?? null, groupId])
          notifyWearerUpdated(ctx, { organizationId: target.organizationId, groupId: groupIdNow, wearerId: uid });
      }
      return { groupId, moved };
    },
  };
}
export type GroupsService = ReturnType<typeof groupsService>;
