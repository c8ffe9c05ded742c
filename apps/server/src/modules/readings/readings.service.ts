import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { startPartitionJob } from './partitions.js';
import { startRetentionJob } from './retention.job.js';
import { readingsStoreRepository } from './readings-store.repository.js';
import { startRollupRecovery } from './rollup-folder.js';

/*
 * The readings module's surface: the telemetry store of the data path. Ingestion stores a batch's
 * readings and positions here, inside the batch's transaction (sent together with its other
 * inserts), hands the new ones to the rollup fold (`ctx.rollups`, created in context.ts) and
 * starts the store's jobs with the app.
 */
export type { LatestInput } from './latest-fold.js';
export type { BatchFold } from './rollup-folder.js';
export type { PositionRow, ReadingRow } from './readings-store.repository.js';

export function readingsService(ctx: AppContext) {
  return {
    /** The store in the batch's transaction: readings and positions, each stored once. */
    store: (tx: Queryable) => readingsStoreRepository(tx),
    /**
     * The store's jobs: retention, the recovery of the rollups a dead process owed, and the readings
     * partitions ahead (each run by the cluster's leader). Returns their stops.
     */
    startJobs: (onError: (job: string) => (err: unknown) => void): (() => Promise<void>)[] => [
      startRetentionJob(ctx, onError('retention job')),
      startRollupRecovery(ctx, onError('rollup recovery')),
      startPartitionJob(ctx, onError('readings partitions')),
    ],
  };
}
