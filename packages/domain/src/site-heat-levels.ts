/**
 * A site's heat level from the WBGT its gateway measured (C). Lower bounds: CAUTION 25,
 * SEVERE 28, DANGER 31 (the Japanese guideline's 注意 / 厳重警戒 / 危険; 28 and 31 are also the
 * MHLW 2025 heat rule's triggers). The level of a site moves with hysteresis (site-heat.ts).
 */
export const SITE_HEAT_LEVELS = ['NORMAL', 'CAUTION', 'SEVERE', 'DANGER'] as const;
export type SiteHeatLevel = (typeof SITE_HEAT_LEVELS)[number];

/** The WBGT (C) at or above which each level begins. */
export const SITE_HEAT_LOWER_BOUND: Record<SiteHeatLevel, number> = {
  NORMAL: Number.NEGATIVE_INFINITY,
  CAUTION: 25,
  SEVERE: 28,
  DANGER: 31,
};

/** The level a WBGT value falls in, without hysteresis. */
export function siteHeatLevelOf(wbgt: number): SiteHeatLevel {
  if (wbgt >= SITE_HEAT_LOWER_BOUND.DANGER) return 'DANGER';
  if (wbgt >= SITE_HEAT_LOWER_BOUND.SEVERE) return 'SEVERE';
  if (wbgt >= SITE_HEAT_LOWER_BOUND.CAUTION) return 'CAUTION';
  return 'NORMAL';
}

export const siteHeatRank = (level: SiteHeatLevel): number => SITE_HEAT_LEVELS.indexOf(level);
