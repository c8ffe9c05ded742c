import { type Actor, can, type ClientInfo, type ClientSummary, scopeOf } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { type GroupRow, type OrganizationRow, organizationsRepository } from './organizations.repository.js';

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
