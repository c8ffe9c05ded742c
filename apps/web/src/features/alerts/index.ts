export { applyAlertEvent, invalidateAlertViews, useAlertList } from './api/alerts-api';
export { AlertBadge } from './components/alert-badge';
export { causeText } from './components/alert-text';
export { AlertHistoriesPage } from './components/alert-histories-page';
export { WearerAlerts } from './components/wearer-alerts';
export { AlertNotifier } from './notifications/alert-notifier';
export { WearerResponseTimes } from './components/wearer-response-times';
