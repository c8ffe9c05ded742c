export { invalidateSiteHeat, useSiteHeat } from './api/get-site-heat';
export { SiteHeatBadge } from './components/site-heat-badge';
export { SiteHeatChanges } from './components/site-heat-changes';
export { SiteHeatList, SiteHeatStrip } from './components/site-heat-list';
export { SiteHeatNow } from './components/site-heat-now';
