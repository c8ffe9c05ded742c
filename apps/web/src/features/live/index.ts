export {
  applyAlertEvent,
  coverageOf,
  type LiveSummary,
  mergeSummaryEvents,
  SUMMARY_KEY,
  useWearerSummary,
} from './api/summary-api';
export { summaryPollMs, useLiveStatus, type LiveStatus } from './hooks/live-status';
export { useLiveStream } from './hooks/use-live-stream';
export { CoverageStrip } from './components/coverage-strip';
export { RelativeTime, useNow } from './components/relative-time';
export {
  BatteryState,
  ConnectionState,
  LastSeen,
  useWearerStateText,
  type WearerStateText,
  WornState,
} from './components/wearer-state';
