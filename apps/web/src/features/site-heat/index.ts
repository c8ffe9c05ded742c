export { invalidateSiteHeat, useSiteHeat } from './api/get-site-heat';
export { SiteHeatBadge } from './components/site-heat-badge';
export { SiteHeatList, SiteHeatStrip } from './components/site-heat-list';
