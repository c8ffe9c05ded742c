import { z } from 'zod';
import { organizationIdParams } from './alert-policy.js';
import { id } from './common.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { gatewayParams } from './fleet-devices.js';
import { displayName } from './organizations.js';

/**
 * Places (issue 17, item 1; docs/sites.md): an organisation's sites (optionally in a group), each
 * with an optional plan image on which its gateways are placed; a gateway may also have a latitude
 * and longitude. Read by the /settings/sites page and, later, /map.
 */

/** A plan image is at most this many bytes (5 MB), enforced while the upload is read. */
export const SITE_PLAN_MAX_BYTES = 5 * 1024 * 1024;
/** The formats a plan may be, read from its content: never SVG or anything that can carry script. */
export const SITE_PLAN_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type SitePlanFormat = (typeof SITE_PLAN_FORMATS)[number];
/** The one Content-Type each format is served with. */
export const SITE_PLAN_CONTENT_TYPES: Record<SitePlanFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

export const siteParams = z.object({ siteId: id });

export const sitePlanView = z.object({
  format: z.enum(SITE_PLAN_FORMATS),
  /** Pixels, as read from the image. */
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
  /** Changes with every upload: a cache key for the image. */
  sha256: z.string(),
  uploadedAt: z.string(),
});
export type SitePlanView = z.infer<typeof sitePlanView>;

export const siteView = z.object({
  id: z.string(),
  clientId: z.string(),
  name: z.string(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  plan: sitePlanView.nullable(),
  createdAt: z.string(),
});
export type SiteView = z.infer<typeof siteView>;

/** A fraction of the plan's width or height, from its top left corner. */
const fraction = z.number().min(0).max(1);
const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);

/** Where a gateway is: on a site's plan and/or at a latitude and longitude (each null: not there). */
export const gatewayPlacement = z.strictObject({
  plan: z.strictObject({ siteId: id, x: fraction, y: fraction }).nullable(),
  position: z.strictObject({ latitude, longitude }).nullable(),
});
export type GatewayPlacement = z.infer<typeof gatewayPlacement>;

/** A gateway the caller may see, with its place (for the plan editor and the map). */
export const placedGatewayView = z.object({
  gatewayId: z.string(),
  name: z.string(),
  groupId: z.string().nullable(),
  plan: z.object({ siteId: z.string(), x: z.number(), y: z.number() }).nullable(),
  position: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
});
export type PlacedGatewayView = z.infer<typeof placedGatewayView>;

export const siteListResponse = z.object({
  sites: z.array(siteView),
  /** Every gateway of the organisation the caller sees, placed or not. */
  gateways: z.array(placedGatewayView),
});
export type SiteListResponse = z.infer<typeof siteListResponse>;

export const createSiteBody = z.strictObject({ name: displayName, groupId: id.nullish() });
export type CreateSiteBody = z.infer<typeof createSiteBody>;
export const renameSiteBody = z.strictObject({ name: displayName });

export const deleteSiteResponse = z.object({
  siteId: z.string(),
  deleted: z.literal(true),
  /** Gateways taken off its plan (their latitude and longitude stay). */
  unplacedGateways: z.number().int(),
});

/** A browser Blob or File, as far as the domain (no DOM types) needs to name it. */
export interface BinaryFile {
  readonly size: number;
  readonly type: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}
const isBinaryFile = (v: unknown): v is BinaryFile =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as BinaryFile).size === 'number' &&
  typeof (v as BinaryFile).arrayBuffer === 'function';

/**
 * The plan's bytes as sent: a raw body (any Content-Type; only the content decides). The web sends
 * a File; the server receives a Buffer.
 */
export const sitePlanUpload = z.custom<BinaryFile | Uint8Array>(
  (v) => v instanceof Uint8Array || isBinaryFile(v),
  { message: 'must be the image file itself (a PNG, JPEG or WebP of at most 5 MB)' },
);
/** The image answered by getSitePlan (a Blob in the web). */
export const sitePlanImage = z.custom<BinaryFile>(() => true);

const sites = endpointsOf({ tags: ['Sites'], errors: BEARER_ERRORS });

export const listSites = sites({
  method: 'GET',
  path: '/v2/organization/{organizationId}/sites',
  permission: 'site:read',
  summary:
    "The organisation's sites the caller sees (with their plans' facts) and its gateways with their places",
  params: organizationIdParams,
  responses: { 200: siteListResponse },
});

export const createSite = sites({
  method: 'POST',
  path: '/v2/organization/{organizationId}/sites',
  permission: 'site:manage',
  summary: 'A new site, of the organisation as a whole or of one of its groups',
  params: organizationIdParams,
  body: createSiteBody,
  responses: { 201: siteView },
  errors: [...BEARER_ERRORS, 409],
});

export const renameSite = sites({
  method: 'PATCH',
  path: '/v2/site/{siteId}',
  permission: 'site:manage',
  summary: 'Rename a site',
  params: siteParams,
  body: renameSiteBody,
  responses: { 200: siteView },
  errors: [...BEARER_ERRORS, 409],
});

export const deleteSite = sites({
  method: 'DELETE',
  path: '/v2/site/{siteId}',
  permission: 'site:manage',
  summary:
    'Delete a site and its plan; its gateways leave the plan (their latitude and longitude stay)',
  params: siteParams,
  responses: { 200: deleteSiteResponse },
});

export const uploadSitePlan = sites({
  method: 'PUT',
  path: '/v2/site/{siteId}/plan',
  permission: 'site:manage',
  summary:
    'Upload or replace the plan: the raw image as the body, a PNG, JPEG or WebP of at most 5 MB, recognised by its content (never its name or declared type); gateways keep their places',
  params: siteParams,
  body: sitePlanUpload,
  consumes: ['image/png', 'image/jpeg', 'image/webp', 'application/octet-stream'],
  responses: { 200: siteView },
  errors: [...BEARER_ERRORS, 413],
});

export const deleteSitePlan = sites({
  method: 'DELETE',
  path: '/v2/site/{siteId}/plan',
  permission: 'site:manage',
  summary: 'Remove the plan image (gateways keep their places for the next plan)',
  params: siteParams,
  responses: { 200: siteView },
});

export const getSitePlan = sites({
  method: 'GET',
  path: '/v2/site/{siteId}/plan',
  permission: 'site:read',
  summary:
    'The plan image, with the Content-Type of its detected format, nosniff and a CSP that runs nothing',
  params: siteParams,
  responses: { 200: sitePlanImage },
  produces: ['image/png', 'image/jpeg', 'image/webp'],
  raw: true,
});

export const placeGateway = sites({
  method: 'PUT',
  path: '/v2/gateway/{gatewayId}/place',
  permission: 'site:manage',
  summary:
    "Place a gateway: on a site's plan of its organisation (x, y: fractions 0..1 from the top left) and/or at a latitude and longitude; null removes either",
  params: gatewayParams,
  body: gatewayPlacement,
  responses: { 200: placedGatewayView },
});
