import { randomUUID } from 'node:crypto';
import {
  type Actor,
  can,
  type ClientInfo,
  type ClientOverview,
  type ClientSummary,
  type CreatedClient,
  type createClientBody,
  scopeOf,
} from '@wearable/domain';
import type { z } from 'zod';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { gatewaysService } from '../gateways/gateways.service.js';
import { invitationsService } from '../invitations/invitations.service.js';
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

    /**
     * A new, empty organisation (platform owners) of the given kind, and the invitation of its owner
     * (an ORGANIZATION_OWNER invitation into it, checked and sent as any invitation). When the
     * invitation is refused (the address has an account: 409) the organisation is removed again, so
     * the platform owner can correct the address and create it once.
     */
    async create(actor: Actor, body: z.output<typeof createClientBody>): Promise<CreatedClient> {
      access.requirePlatform(actor, 'organization:create');
      const id = `org-${randomUUID()}`;
      const timeZone = body.timeZone ?? 'Asia/Tokyo';
      const kind = body.kind ?? 'OTHER';
      await repo.insert({ id, name: body.name, timeZone, kind }, ctx.now());
      let invitedOwner: string | null = null;
      if (body.owner) {
        try {
          const sent = await invitationsService(ctx).invite(actor, {
            email: body.owner.email,
            role: 'ORGANIZATION_OWNER',
            clientId: id,
            groupIds: [],
            ...(body.owner.name ? { name: body.owner.name } : {}),
            ...(body.owner.locale ? { locale: body.owner.locale } : {}),
          });
          invitedOwner = sent.email;
        } catch (error) {
          await repo.remove(id);
          // The invitation's field is the body's owner.email here.
          if (error instanceof ApiError && error.message.startsWith('body.email'))
            throw new ApiError(
              error.statusCode,
              error.code,
              error.message.replace('body.email', 'body.owner.email'),
              [{ path: 'body.owner.email', message: error.message.replace(/^body\.email: /, '') }],
            );
          throw error;
        }
      }
      return { id, name: body.name, timeZone, kind, groups: [], invitedOwner };
    },

    async update(
      actor: Actor,
      id: string,
      patch: {
        name?: string | undefined;
        timeZone?: string | undefined;
        emergencyPhone?: string | null | undefined;
      },
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
      return {
        id: org.id,
        name: org.name,
        timeZone: org.timeZone,
        groups,
        emergencyPhone: org.emergencyPhone ?? null,
        kind: org.kind,
      };
    },
  };
}
export type OrganizationsService = ReturnType<typeof organizationsService>;
