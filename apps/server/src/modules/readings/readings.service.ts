import type { AppContext } from '../../context.js';
import { startPartitionJob } from './partitions.js';
import { startRetentionJob } from './retention.job.js';
import { startRollupRecovery } from './rollup-folder.js';

/*
 * The readings module's surface: the telemetry store of the data path. Ingestion stores a batch's
 * readings and positions here, inside the batch's transaction (sent together with its other
 * inserts), hands the new ones to the rollup fold (`ctx.rollups`, created in context.ts) and
 * starts the store's jobs with the app.
 */
export type { LatestInput } from './latest-fold.js';
export type { BatchFold } from './rollup-folder.js';
export {
  type PositionRow,
  type ReadingRow,
  readingsStoreRepository,
} from './readings-store.repository.js';

/**
 * The store's jobs: retention, the recovery of the rollups a dead process owed, and the readings
 * partitions ahead (each run by the cluster's leader). Returns their stops.
 */
export function startReadingsJobs(
  ctx: AppContext,
  onError: (job: string) => (err: unknown) => void,
): (() => Promise<void>)[] {
  return [
    startRetentionJob(ctx, onError('retention job')),
    startRollupRecovery(ctx, onError('rollup recovery')),
    startPartitionJob(ctx, onError('readings partitions')),
  ];
}
