import { randomUUID } from 'node:crypto';
import {
  type Actor,
  can,
  type ClientInfo,
  type ClientOverview,
  type ClientSummary,
  scopeOf,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { gatewaysService } from '../gateways/gateways.service.js';
import {
  type GroupRow,
  type OrganizationRow,
  organizationsRepository,
} from './organizations.repository.js';

const byName = new Intl.Collator('ja');

/** Organisations ("clients" in the API) and their groups, as the actor may see them. */
export function organizationsService(ctx: AppContext) {
  const repo = organizationsRepository(ctx.db);
  const access = accessService(ctx.db);

  async function readableOrganization(actor: Actor, id: string): Promise<OrganizationRow> {
    await access.require(actor, 'organization:read', 'organization', id);
    return (await repo.findById(id))!;
  }

  return {
    readableOrganization,

    /** A group the actor may read, else 404 (unknown and foreign look the same). */
    async readableGroup(actor: Actor, id: string): Promise<GroupRow> {
      await access.require(actor, 'group:read', 'group', id);
      return (await repo.findGroup(id))!;
    },

    async listClients(actor: Actor): Promise<ClientSummary[]> {
      const scope = scopeOf(actor);
      const ids =
        scope.kind === 'platform'
          ? null
          : scope.kind === 'organization' || scope.kind === 'groups'
            ? [scope.organizationId]
            : [];
      const rows = await repo.listSummaries(ids);
      return rows
        .filter((o) => can(actor, 'organization:read', { organizationId: o.id }))
        .sort((a, b) => byName.compare(a.name, b.name));
    },

    /** A new, empty organisation (platform owners). */
    async create(
      actor: Actor,
      body: { name: string; timeZone?: string | undefined },
    ): Promise<ClientInfo> {
      access.requirePlatform(actor, 'organization:create');
      const id = `org-${randomUUID()}`;
      await repo.insert(
        { id, name: body.name, timeZone: body.timeZone ?? 'Asia/Tokyo' },
        ctx.now(),
      );
      return { id, name: body.name, timeZone: body.timeZone ?? 'Asia/Tokyo', groups: [] };
    },

    async update(
      actor: Actor,
      id: string,
      patch: { name?: string | undefined; timeZone?: string | undefined },
    ): Promise<ClientInfo> {
      await access.require(actor, 'organization:update', 'organization', id);
      await repo.update(id, patch);
      return this.clientInfo(actor, id);
    },

    /** /organization/{id}: groups with wearers and open alerts, gateways with status, members. */
    async overview(actor: Actor, id: string): Promise<ClientOverview> {
      const org = await readableOrganization(actor, id);
      const [groups, gateways, memberCount] = await Promise.all([
        repo.groupCounts(id),
        gatewaysService(ctx).list(actor, id),
        repo.memberCount(id),
      ]);
      const visible = groups
        .filter((g) => can(actor, 'group:read', { organizationId: id, groupIds: [g.id] }))
        .sort((a, b) => byName.compare(a.name, b.name));
      const [summary] = await repo.listSummaries([id]);
      return {
        id,
        name: org.name,
        timeZone: org.timeZone,
        groups: visible,
        gateways,
        memberCount,
        wearerCount: summary?.wearerCount ?? 0,
        openAlertCount: summary?.openAlertCount ?? 0,
      };
    },

    async clientInfo(actor: Actor, id: string): Promise<ClientInfo> {
      const org = await readableOrganization(actor, id);
      const groups = (await repo.listGroups(org.id))
        .filter((g) => can(actor, 'group:read', { organizationId: org.id, groupIds: [g.id] }))
        .sort((a, b) => byName.compare(a.name, b.name))
        .map((g) => ({ id: g.id, name: g.name }));
      return { id: org.id, name: org.name, timeZone: org.timeZone, groups };
    },
  };
}
export type OrganizationsService = ReturnType<typeof organizationsService>;
