import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { type Db, openDb } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { accessLogRepository } from '../modules/access-log/access-log.repository.js';
import { type ChainBreak, findChainBreak } from '../modules/access-log/access-log-chain.js';
import { CliError } from './cli-error.js';
import { refuseWhileServerRuns } from './embedded-owner.js';

export interface ChainReport {
  organizationId: string;
  entries: number;
  broken: ChainBreak | null;
}

/** Walks each organisation's chain (or one) and answers what it found. */
export async function verifyAccessLog(db: Db, organizationId?: string): Promise<ChainReport[]> {
  const repo = accessLogRepository(db);
  const orgs = organizationId ? [organizationId] : await repo.organizationsWithChains();
  const reports: ChainReport[] = [];
  for (const org of orgs) {
    let entries = 0;
    async function* counted() {
      for await (const e of repo.chain(org)) {
        entries += 1;
        yield e;
      }
    }
    const collected = [];
    for await (const e of counted()) collected.push(e);
    reports.push({
      organizationId: org,
      entries,
      broken: findChainBreak(collected, await repo.head(org)),
    });
  }
  return reports;
}

export function describeBreak(b: ChainBreak): string {
  switch (b.problem) {
    case 'changed':
      return `entry ${b.seq} was changed (its hash does not match its fields)`;
    case 'missing':
      return `entries from ${b.expectedSeq} to ${b.seq - 1} are missing (deleted)`;
    case 'relinked':
      return `entry ${b.seq} does not follow the entry before it (moved, replaced or the one before changed)`;
    case 'head':
      return `the chain ends at ${b.seq} but its head says ${b.headSeq} (the last entries were deleted or changed)`;
  }
}

/** `verify-access-log [--org ID]`: exits 1 when any chain is broken (docs/access-log.md). */
export async function verifyAccessLogCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' } } });
  const config = loadConfig();
  await refuseWhileServerRuns(config, 'checking its access log');
  const db = await openDb(config);
  try {
    await migrate(db);
    const reports = await verifyAccessLog(db, values.org);
    let broken = 0;
    for (const r of reports) {
      if (r.broken) {
        broken += 1;
        console.log(`${r.organizationId}: BROKEN: ${describeBreak(r.broken)}`);
      } else console.log(`${r.organizationId}: ${r.entries} entries, chain intact`);
    }
    if (broken > 0) throw new CliError(`${broken} organisation(s) with a broken access log`);
    console.log(`${reports.length} organisation(s) checked, every chain intact`);
  } finally {
    await db.close();
  }
}
