import { z } from 'zod';
import { SITE_HEAT_LEVELS } from '../site-heat-levels.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { clientParams } from './alert-settings.js';

const idParam = z.string().min(1).max(64);
const level = z.enum(SITE_HEAT_LEVELS);

/** GET /v2/client/{clientId}/siteHeat?groupId=: the heat level of each site (gateway) the caller sees. */
export const siteHeatQuery = z.object({ groupId: idParam.optional() });
export type SiteHeatQuery = z.infer<typeof siteHeatQuery>;

/** One site: a gateway that has sent WBGT, with its current heat level. */
export const siteHeatView = z.object({
  gatewayId: z.string(),
  gatewayName: z.string(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  level,
  /** When the site entered its level (null: NORMAL since its first reading). */
  since: z.string().nullable(),
  /** The latest WBGT (C) and its time. */
  wbgt: z.number().nullable(),
  wbgtAt: z.string().nullable(),
  /** Japan's 2025 heat rule applies to the site today (WBGT 28 / air 31 C for an hour, or four hours). */
  heatRuleAppliesToday: z.boolean(),
});
export type SiteHeatView = z.infer<typeof siteHeatView>;

export const siteHeatResponse = z.object({
  clientId: z.string(),
  sites: z.array(siteHeatView),
});
export type SiteHeatResponse = z.infer<typeof siteHeatResponse>;

/** A change of a site's heat level (the heat-rule report lists a month of them). */
export const siteHeatChangeView = z.object({
  id: z.string(),
  gatewayId: z.string(),
  gatewayName: z.string(),
  groupId: z.string().nullable(),
  from: level,
  to: level,
  at: z.string(),
  wbgt: z.number().nullable(),
  /** The heat rule applied on the day of the change, when it changed. */
  heatRuleAppliesToday: z.boolean(),
});
export type SiteHeatChangeView = z.infer<typeof siteHeatChangeView>;

/** The live stream's `siteHeat` frame: a site changed level (sent to staff who see its group). */
export const liveSiteHeatEvent = z.object({
  site: siteHeatView,
  change: siteHeatChangeView,
});
export type LiveSiteHeatEvent = z.infer<typeof liveSiteHeatEvent>;

export const listSiteHeat = endpointsOf({ tags: ['Heat rule'], errors: BEARER_ERRORS })({
  method: 'GET',
  path: '/v2/client/{clientId}/siteHeat',
  permission: 'gateway:read',
  summary:
    'The heat level of each site (gateway with WBGT) the caller sees: level, since, latest WBGT',
  params: clientParams,
  query: siteHeatQuery,
  responses: { 200: siteHeatResponse },
});
