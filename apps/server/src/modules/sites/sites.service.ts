import { createHash, randomUUID } from 'node:crypto';
import {
  type Actor,
  type CreateSiteBody,
  type GatewayPlacement,
  type PlacedGatewayView,
  SITE_PLAN_CONTENT_TYPES,
  type SiteListResponse,
  type SitePlanFormat,
  type SiteView,
} from '@wearable/domain';
import { accessService, notFoundError } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { ApiError, conflict, forbidden } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { readPlanImage } from './site-plan-image.js';
import {
  type SiteRow,
  sitesRepository,
  toPlacedGatewayView,
  toSiteView,
} from './sites.repository.js';

const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);
const nameTaken = (name: string) =>
  conflict(`name: the organisation already has a site named ${name}`, 'SITE_NAME_TAKEN');

/** Where a site lives for the permission table: its group, or no group (owners only). */
const where = (r: { organizationId: string; groupId: string | null }) => ({
  organizationId: r.organizationId,
  groupIds: r.groupId ? [r.groupId] : [],
});

/**
 * Sites, their plan images and where gateways are placed (issue 17, docs/sites.md). Access is the
 * access layer's: site:read for every staff member in scope, site:manage for owners and the
 * managers of the site's group; a site in no group is the owners'. Every change is audited.
 */
export function sitesService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const repo = sitesRepository(ctx.db);

  async function siteOf(actor: Actor, siteId: string, permission: 'site:read' | 'site:manage') {
    await access.require(actor, permission, 'site', siteId);
    const row = await repo.find(siteId);
    if (!row) throw notFoundError('site', siteId);
    return row;
  }

  /** The change's audit entry, written in the change's own transaction. */
  const audit = (db: Queryable, actor: Actor, row: SiteRow, before?: object, after?: object) =>
    auditService(db).record({
      organizationId: row.organizationId,
      actorId: actor.uid,
      kind: 'site.change',
      targetId: row.id,
      ...(before ? { before } : {}),
      ...(after ? { after } : {}),
    });

  return {
    async list(actor: Actor, organizationId: string): Promise<SiteListResponse> {
      await access.require(actor, 'site:read', 'organization', organizationId);
      const [sites, gateways] = await Promise.all([
        repo.list(organizationId),
        repo.gateways(organizationId),
      ]);
      return {
        sites: sites.filter((s) => access.may(actor, 'site:read', where(s))).map(toSiteView),
        gateways: gateways
          .filter((g) => access.may(actor, 'gateway:read', where({ organizationId, ...g })))
          .map(toPlacedGatewayView),
      };
    },

    async create(actor: Actor, organizationId: string, body: CreateSiteBody): Promise<SiteView> {
      const groupId = body.groupId ?? null;
      // The contract's site:manage depends on where the site goes (decision 0018): site:read only finds the
      // organisation (404 for one the caller does not reach); site:manage is checked for the exact place below.
      await access.require(actor, 'site:read', 'organization', organizationId);
      if (groupId === null) {
        // A site of the organisation as a whole: not a group manager's to make.
        if (!access.may(actor, 'site:manage', { organizationId, groupIds: [] }))
          throw forbidden('Your role may make sites only in the groups you manage (give groupId)');
      } else {
        const group = (await access.permitted(actor, 'site:manage', 'group', [groupId])).get(
          groupId,
        );
        if (!group || group.organizationId !== organizationId)
          throw invalid('body.groupId', `group ${groupId} not found among the groups you manage`);
      }
      const id = `site-${randomUUID()}`;
      const row = await ctx.db.transaction(async (tx) => {
        const r = sitesRepository(tx);
        if (!(await r.insert({ id, organizationId, groupId, name: body.name, at: ctx.now() })))
          throw nameTaken(body.name);
        const created = (await r.find(id))!;
        await audit(tx, actor, created, undefined, { name: created.name, groupId });
        return created;
      });
      return toSiteView(row);
    },

    async rename(actor: Actor, siteId: string, name: string): Promise<SiteView> {
      const before = await siteOf(actor, siteId, 'site:manage');
      const row = await ctx.db.transaction(async (tx) => {
        const r = sitesRepository(tx);
        if (!(await r.rename(siteId, name))) throw nameTaken(name);
        const renamed = await r.find(siteId);
        if (!renamed) throw notFoundError('site', siteId);
        await audit(tx, actor, renamed, { name: before.name }, { name: renamed.name });
        return renamed;
      });
      return toSiteView(row);
    },

    async remove(actor: Actor, siteId: string) {
      const before = await siteOf(actor, siteId, 'site:manage');
      const result = await ctx.db.transaction(async (tx) => {
        const r = await sitesRepository(tx).remove(siteId);
        if (r.deleted)
          await audit(tx, actor, before, {
            name: before.name,
            groupId: before.groupId,
            plan: before.planFormat,
          });
        return r;
      });
      if (!result.deleted) throw notFoundError('site', siteId);
      return { siteId, deleted: true as const, unplacedGateways: result.unplaced };
    },

    /** Stores the plan only if its content is a PNG, JPEG or WebP (site-plan-image.ts). */
    async putPlan(actor: Actor, siteId: string, body: unknown): Promise<SiteView> {
      const site = await siteOf(actor, siteId, 'site:manage');
      if (!(body instanceof Uint8Array)) throw invalid('body', 'must be the image file itself');
      const image = readPlanImage(body);
      if (!image.ok) throw invalid('body', `the plan ${image.problem}`);
      const sha256 = createHash('sha256').update(body).digest('hex');
      const row = await ctx.db.transaction(async (tx) => {
        const r = sitesRepository(tx);
        await r.putPlan({ siteId, ...image, bytes: body, sha256, at: ctx.now(), by: actor.uid });
        const stored = (await r.find(siteId)) ?? site;
        await audit(tx, actor, stored, site.planSha256 ? { plan: site.planSha256 } : undefined, {
          plan: sha256,
          format: image.format,
          width: image.width,
          height: image.height,
        });
        return stored;
      });
      return toSiteView(row);
    },

    async deletePlan(actor: Actor, siteId: string): Promise<SiteView> {
      const site = await siteOf(actor, siteId, 'site:manage');
      await ctx.db.transaction(async (tx) => {
        if (!(await sitesRepository(tx).deletePlan(siteId)))
          throw new ApiError(404, 'SITE_PLAN_NOT_FOUND', `Site ${siteId} has no plan`);
        await audit(tx, actor, site, { plan: site.planSha256 }, { plan: null });
      });
      return toSiteView({ ...site, planFormat: null });
    },

    /** The image and the one Content-Type its detected format is served with. */
    async planImage(
      actor: Actor,
      siteId: string,
    ): Promise<{ contentType: string; format: SitePlanFormat; bytes: Buffer }> {
      await access.require(actor, 'site:read', 'site', siteId);
      const plan = await repo.planImage(siteId);
      if (!plan) throw new ApiError(404, 'SITE_PLAN_NOT_FOUND', `Site ${siteId} has no plan`);
      return {
        contentType: SITE_PLAN_CONTENT_TYPES[plan.format],
        format: plan.format,
        bytes: Buffer.from(plan.bytes.buffer, plan.bytes.byteOffset, plan.bytes.byteLength),
      };
    },

    /**
     * Places a gateway on a site's plan and/or at a position. The actor manages sites where the
     * gateway is (its group) and the site; the site must be of the gateway's organisation (the
     * database holds that too: gateway_places' foreign key).
     */
    async place(
      actor: Actor,
      gatewayId: string,
      body: GatewayPlacement,
    ): Promise<PlacedGatewayView> {
      const at = await access.require(actor, 'site:manage', 'gateway', gatewayId);
      if (body.plan) {
        const siteId = body.plan.siteId;
        const site = (await access.permitted(actor, 'site:manage', 'site', [siteId])).get(siteId);
        if (!site || site.organizationId !== at.organizationId)
          throw new ApiError(
            404,
            'SITE_NOT_FOUND',
            `body.plan.siteId: site ${siteId} not found among the gateway organisation's sites you manage`,
            [{ path: 'body.plan.siteId', message: `site ${siteId} not found` }],
          );
      }
      const before = await repo.gateway(gatewayId);
      await ctx.db.transaction(async (tx) => {
        await sitesRepository(tx).place({
          gatewayId,
          organizationId: at.organizationId,
          plan: body.plan,
          position: body.position,
          at: ctx.now(),
        });
        await auditService(tx).record({
          organizationId: at.organizationId,
          actorId: actor.uid,
          kind: 'gateway.change',
          targetId: gatewayId,
          ...(before ? { before: placeOf(toPlacedGatewayView(before)) } : {}),
          after: { plan: body.plan, position: body.position },
        });
      });
      const row = await repo.gateway(gatewayId);
      if (!row) throw notFoundError('gateway', gatewayId);
      return toPlacedGatewayView(row);
    },
  };
}

const placeOf = (g: PlacedGatewayView) => ({ plan: g.plan, position: g.position });
