import {
  type Actor,
  can,
  type ClientInfo,
  type ClientSummary,
  isPersonalRole,
  isPlatformRole,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { forbidden, notFound } from '../../errors.js';
import {
  type GroupRow,
  type OrganizationRow,
  organizationsRepository,
} from './organizations.repository.js';

const byName = new Intl.Collator('ja');
// Another organisation's id answers like an unknown one, so ids do not leak.
const clientNotFound = (id: string) => notFound(`Client ${id} not found`, 'CLIENT_NOT_FOUND');

/** Organisations ("clients" in the API) and their groups, as the actor may see them. */
export function organizationsService(ctx: AppContext) {
  const repo = organizationsRepository(ctx.db);

  async function readableOrganization(actor: Actor, id: string): Promise<OrganizationRow> {
    const org = can(actor, 'read', { kind: 'organization', organizationId: id })
      ? await repo.findById(id)
      : null;
    if (!org) throw clientNotFound(id);
    return org;
  }

  return {
    readableOrganization,

    /** A group the actor may read, else 404 (unknown and foreign look the same). */
    async readableGroup(actor: Actor, id: string): Promise<GroupRow> {
      const group = await repo.findGroup(id);
      if (
        !group ||
        !can(actor, 'read', {
          kind: 'group',
          organizationId: group.organizationId,
          groupId: group.id,
        })
      ) {
        throw notFound(`Group ${id} not found`, 'GROUP_NOT_FOUND');
      }
      return group;
    },

    async listClients(actor: Actor): Promise<ClientSummary[]> {
      if (isPersonalRole(actor.role))
        throw forbidden('Personal accounts have no organisation list');
      const ids = isPlatformRole(actor.role)
        ? null
        : actor.organizationId
          ? [actor.organizationId]
          : [];
      const rows = await repo.listSummaries(ids);
      return rows
        .filter((o) => can(actor, 'read', { kind: 'organization', organizationId: o.id }))
        .sort((a, b) => byName.compare(a.name, b.name));
    },

    async clientInfo(actor: Actor, id: string): Promise<ClientInfo> {
      const org = await readableOrganization(actor, id);
      const groups = (await repo.listGroups(org.id))
        .filter((g) => can(actor, 'read', { kind: 'group', organizationId: org.id, groupId: g.id }))
        .sort((a, b) => byName.compare(a.name, b.name))
        .map((g) => ({ id: g.id, name: g.name }));
      return { id: org.id, name: org.name, timeZone: org.timeZone, groups };
    },
  };
}
export type OrganizationsService = ReturnType<typeof organizationsService>;
