import type { AlertPolicy } from '@wearable/domain';

/** How long an organisation's site heat policy and time zone are kept (a changed policy applies within this). */
export const SITE_HEAT_POLICY_TTL_MS = 30_000;

/** What the site heat step keeps between batches; a named field of the app context. */
export interface SiteHeatRuntime {
  /** The organisation's alert policy and time zone, by organisation id, for SITE_HEAT_POLICY_TTL_MS. */
  policies: Map<string, { policy: AlertPolicy; timeZone: string; expires: number }>;
}

export const createSiteHeatRuntime = (): SiteHeatRuntime => ({ policies: new Map() });
