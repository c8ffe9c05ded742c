/** Per-minute rollups are kept this many days; hours beyond it are never recomputed from them. */
export const MINUTE_ROLLUP_RETENTION_DAYS = 400;
