import type { PlacedGatewayView, SitePlanFormat, SiteView } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export interface SiteRow {
  id: string;
  organizationId: string;
  name: string;
  groupId: string | null;
  groupName: string | null;
  createdAt: Date | string;
  planFormat: SitePlanFormat | null;
  planWidth: number | null;
  planHeight: number | null;
  planBytes: number | null;
  planSha256: string | null;
  planUploadedAt: Date | string | null;
}

export interface PlacedGatewayRow {
  gatewayId: string;
  name: string;
  groupId: string | null;
  siteId: string | null;
  planX: number | null;
  planY: number | null;
  latitude: number | null;
  longitude: number | null;
}

const iso = (d: Date | string) => new Date(d).toISOString();

export const toSiteView = (r: SiteRow): SiteView => ({
  id: r.id,
  clientId: r.organizationId,
  name: r.name,
  groupId: r.groupId,
  groupName: r.groupName,
  plan:
    r.planFormat === null
      ? null
      : {
          format: r.planFormat,
          width: r.planWidth!,
          height: r.planHeight!,
          bytes: r.planBytes!,
          sha256: r.planSha256!,
          uploadedAt: iso(r.planUploadedAt!),
        },
  createdAt: iso(r.createdAt),
});

export const toPlacedGatewayView = (r: PlacedGatewayRow): PlacedGatewayView => ({
  gatewayId: r.gatewayId,
  name: r.name,
  groupId: r.groupId,
  plan: r.siteId === null ? null : { siteId: r.siteId, x: r.planX!, y: r.planY! },
  position: r.latitude === null ? null : { latitude: r.latitude, longitude: r.longitude! },
});

const SITE = `SELECT s.id, s.organization_id AS "organizationId", s.name, s.group_id AS "groupId",
       g.name AS "groupName", s.created_at AS "createdAt", p.format AS "planFormat",
       p.width AS "planWidth", p.height AS "planHeight", octet_length(p.bytes) AS "planBytes",
       p.sha256 AS "planSha256", p.uploaded_at AS "planUploadedAt"
  FROM sites s LEFT JOIN groups g ON g.id = s.group_id LEFT JOIN site_plans p ON p.site_id = s.id`;

const GATEWAY = `SELECT gw.id AS "gatewayId", gw.name, gw.group_id AS "groupId", gp.site_id AS "siteId",
       gp.plan_x AS "planX", gp.plan_y AS "planY", gp.latitude, gp.longitude
  FROM gateways gw LEFT JOIN gateway_places gp ON gp.gateway_id = gw.id`;

/** Sites, their plans and where gateways are placed (the SQL; access is the service's). */
export function sitesRepository(db: Queryable) {
  return {
    async list(organizationId: string): Promise<SiteRow[]> {
      return db.query<SiteRow>(
        `${SITE} WHERE s.organization_id = $1 ORDER BY lower(s.name), s.id`,
        [organizationId],
      );
    },

    async find(siteId: string): Promise<SiteRow | null> {
      const [row] = await db.query<SiteRow>(`${SITE} WHERE s.id = $1`, [siteId]);
      return row ?? null;
    },

    async gateways(organizationId: string): Promise<PlacedGatewayRow[]> {
      return db.query<PlacedGatewayRow>(
        `${GATEWAY} WHERE gw.organization_id = $1 ORDER BY lower(gw.name), gw.id`,
        [organizationId],
      );
    },

    async gateway(gatewayId: string): Promise<PlacedGatewayRow | null> {
      const [row] = await db.query<PlacedGatewayRow>(`${GATEWAY} WHERE gw.id = $1`, [gatewayId]);
      return row ?? null;
    },

    /** False when the organisation already has a site of that name (any case). */
    async insert(site: {
      id: string;
      organizationId: string;
      groupId: string | null;
      name: string;
      at: Date;
    }): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO sites (id, organization_id, group_id, name, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id`,
        [site.id, site.organizationId, site.groupId, site.name, site.at],
      );
      return rows.length === 1;
    },

    /** False when another site of the organisation has that name. */
    async rename(siteId: string, name: string): Promise<boolean> {
      try {
        await db.query('UPDATE sites SET name = $2 WHERE id = $1', [siteId, name]);
        return true;
      } catch (err) {
        if ((err as { code?: string }).code === '23505') return false;
        throw err;
      }
    },

    /** Takes the site's gateways off its plan (dropping places left empty), then deletes it. */
    async remove(siteId: string): Promise<{ unplaced: number; deleted: boolean }> {
      const unplaced = await db.query(
        `UPDATE gateway_places SET site_id = NULL, plan_x = NULL, plan_y = NULL, updated_at = now()
          WHERE site_id = $1 AND latitude IS NOT NULL RETURNING gateway_id`,
        [siteId],
      );
      const dropped = await db.query(
        'DELETE FROM gateway_places WHERE site_id = $1 RETURNING gateway_id',
        [siteId],
      );
      const deleted = await db.query('DELETE FROM sites WHERE id = $1 RETURNING id', [siteId]);
      return { unplaced: unplaced.length + dropped.length, deleted: deleted.length === 1 };
    },

    async putPlan(plan: {
      siteId: string;
      format: SitePlanFormat;
      width: number;
      height: number;
      bytes: Uint8Array;
      sha256: string;
      at: Date;
      by: string;
    }): Promise<void> {
      await db.query(
        `INSERT INTO site_plans (site_id, format, width, height, bytes, sha256, uploaded_at, uploaded_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (site_id) DO UPDATE SET format = EXCLUDED.format, width = EXCLUDED.width,
           height = EXCLUDED.height, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256,
           uploaded_at = EXCLUDED.uploaded_at, uploaded_by = EXCLUDED.uploaded_by`,
        [
          plan.siteId,
          plan.format,
          plan.width,
          plan.height,
          plan.bytes,
          plan.sha256,
          plan.at,
          plan.by,
        ],
      );
    },

    async deletePlan(siteId: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM site_plans WHERE site_id = $1 RETURNING site_id', [
        siteId,
      ]);
      return rows.length === 1;
    },

    async planImage(siteId: string): Promise<{ format: SitePlanFormat; bytes: Uint8Array } | null> {
      const [row] = await db.query<{ format: SitePlanFormat; bytes: Uint8Array }>(
        'SELECT format, bytes FROM site_plans WHERE site_id = $1',
        [siteId],
      );
      return row ?? null;
    },

    /** Sets (or, with both null, removes) a gateway's place. */
    async place(p: {
      gatewayId: string;
      organizationId: string;
      plan: { siteId: string; x: number; y: number } | null;
      position: { latitude: number; longitude: number } | null;
      at: Date;
    }): Promise<void> {
      if (p.plan === null && p.position === null) {
        await db.query('DELETE FROM gateway_places WHERE gateway_id = $1', [p.gatewayId]);
        return;
      }
      await db.query(
        `INSERT INTO gateway_places (gateway_id, organization_id, site_id, plan_x, plan_y, latitude,
                                     longitude, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (gateway_id) DO UPDATE SET site_id = EXCLUDED.site_id, plan_x = EXCLUDED.plan_x,
           plan_y = EXCLUDED.plan_y, latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude,
           updated_at = EXCLUDED.updated_at`,
        [
          p.gatewayId,
          p.organizationId,
          p.plan?.siteId ?? null,
          p.plan?.x ?? null,
          p.plan?.y ?? null,
          p.position?.latitude ?? null,
          p.position?.longitude ?? null,
          p.at,
        ],
      );
    },
  };
}
