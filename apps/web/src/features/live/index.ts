export {
  applyAlertEvent,
  coverageOf,
  type LiveSummary,
  mergeSummaryEvents,
  SUMMARY_KEY,
  useWearerSummary,
} from './api/summary-api';
export {
  LIVE_DOWN_BANNER_MS,
  summaryPollMs,
  useLiveDownSince,
  useLiveStatus,
  type LiveStatus,
} from './hooks/live-status';
export { LiveHealthBanner } from './components/live-health-banner';
export { useLiveStream } from './hooks/use-live-stream';
export { CoverageStrip } from './components/coverage-strip';
export { RelativeTime, useNow } from './components/relative-time';
export {
  BatteryState,
  ConnectionState,
  LastSeen,
  LatestValue,
  STALE_AFTER_MS,
  staleAgeMs,
  useWearerStateText,
  type WearerStateText,
  WornState,
} from './components/wearer-state';
