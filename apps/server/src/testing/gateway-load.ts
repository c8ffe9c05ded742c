import type { Queryable } from '../db/client.js';
import type { WearerRecord } from './factories.js';

/** One gateway batch of the crash tests, with the keys of what it carries. */
export interface LoadBatch {
  batchId: string;
  body: {
    batchId: string;
    readings: { serialNumber: string; at: string; heartRate: number }[];
    events: { serialNumber: string; type: 'SOS'; at: string }[];
  };
}

/**
 * `count` batches of `perBatch` readings each, spread over the wearers (all behind one gateway),
 * every reading at its own second within the last day (so each is a distinct row); one SOS per
 * wearer rides in the batch `sosBatch`. Ids are `<prefix>-<n>`.
 */
export function makeBatches(
  prefix: string,
  wearers: WearerRecord[],
  count: number,
  perBatch: number,
  sosBatch = Math.floor(count / 2),
): LoadBatch[] {
  const start = Date.now() - 20 * 3600_000;
  const batches: LoadBatch[] = [];
  let k = 0;
  for (let b = 0; b < count; b++) {
    const readings = [];
    for (let i = 0; i < perBatch; i++, k++) {
      const w = wearers[k % wearers.length]!;
      const second = Math.floor(k / wearers.length);
      readings.push({
        serialNumber: w.bracelet.serialNumber,
        at: new Date(start + second * 1000).toISOString(),
        heartRate: 60 + (k % 40),
      });
    }
    const events =
      b === sosBatch
        ? wearers.map((w) => ({
            serialNumber: w.bracelet.serialNumber,
            type: 'SOS' as const,
            at: new Date(Date.now() - 1000).toISOString(),
          }))
        : [];
    const batchId = `${prefix}-${b}`;
    batches.push({ batchId, body: { batchId, readings, events } });
  }
  return batches;
}

export interface HttpSendReport {
  acknowledged: Set<string>;
  /** Status codes seen (0: no answer: connection refused or reset). */
  statuses: Map<number, number>;
  /** Retry-After values seen on 503 answers. */
  retryAfter: Set<string>;
}

export const newReport = (): HttpSendReport => ({
  acknowledged: new Set(),
  statuses: new Map(),
  retryAfter: new Set(),
});

/**
 * Sends every batch over HTTP as a gateway does: `concurrency` at a time, each one again until it
 * is acknowledged (200), waiting Retry-After (or 200 ms without an answer) in between. `base()` is
 * read per attempt (a restarted server may be elsewhere). Throws when `deadline` passes first.
 */
export async function sendAllOverHttp(
  base: () => string,
  gateway: { id: string; credential: string },
  batches: LoadBatch[],
  opts: {
    concurrency?: number;
    deadline: number;
    onAck?: (acked: number) => void;
    report?: HttpSendReport;
  },
): Promise<HttpSendReport> {
  const report = opts.report ?? newReport();
  const queue = [...batches];
  const seen = (status: number) =>
    report.statuses.set(status, (report.statuses.get(status) ?? 0) + 1);
  const worker = async () => {
    for (let batch = queue.shift(); batch; batch = queue.shift()) {
      for (;;) {
        if (Date.now() > opts.deadline)
          throw new Error(`batch ${batch.batchId} not acknowledged before the deadline`);
        let wait = 200;
        try {
          const res = await fetch(`${base()}/gateway/v1/batches`, {
            method: 'POST',
            headers: {
              authorization: `Gateway ${gateway.id}:${gateway.credential}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify(batch.body),
            signal: AbortSignal.timeout(30_000),
          });
          seen(res.status);
          await res.arrayBuffer();
          if (res.status === 200) {
            report.acknowledged.add(batch.batchId);
            opts.onAck?.(report.acknowledged.size);
            break;
          }
          const after = res.headers.get('retry-after');
          if (after) {
            report.retryAfter.add(after);
            wait = Number(after) * 1000;
          }
        } catch {
          seen(0);
        }
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  return report;
}

/** Readings of these wearers: rows, and distinct (bracelet, at) keys (equal when nothing is doubled). */
export async function countReadings(
  db: Queryable,
  wearers: WearerRecord[],
): Promise<{ rows: number; distinct: number }> {
  const r = await db.query<{ rows: number; distinct: number }>(
    `SELECT count(*)::int AS rows, count(DISTINCT (bracelet_id, at))::int AS distinct
       FROM readings WHERE wearer_id = ANY($1)`,
    [wearers.map((w) => w.uid)],
  );
  return r[0] ?? { rows: 0, distinct: 0 };
}

/** SOS alerts per wearer (each must be exactly 1). */
export async function sosAlertsPerWearer(
  db: Queryable,
  wearers: WearerRecord[],
): Promise<number[]> {
  const r = await db.query<{ wearer_id: string; n: number }>(
    `SELECT wearer_id, count(*)::int AS n FROM alerts WHERE type = 'SOS_CALL' AND wearer_id = ANY($1) GROUP BY wearer_id`,
    [wearers.map((w) => w.uid)],
  );
  const by = new Map(r.map((x) => [x.wearer_id, x.n]));
  return wearers.map((w) => by.get(w.uid) ?? 0);
}

/** Polls `probe` every 250 ms until it returns true (throws after `ms`). */
export async function eventually(
  probe: () => Promise<boolean>,
  ms: number,
  what: string,
): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** How many readings of the acknowledged batches are not in the database (must be 0). */
export async function missingAcknowledged(
  db: Queryable,
  wearers: WearerRecord[],
  batches: LoadBatch[],
  acknowledged: Set<string>,
): Promise<number> {
  const rows = await db.query<{ wearer_id: string; at: Date | string }>(
    'SELECT wearer_id, at FROM readings WHERE wearer_id = ANY($1)',
    [wearers.map((w) => w.uid)],
  );
  const stored = new Set(rows.map((r) => `${r.wearer_id}|${new Date(r.at).toISOString()}`));
  const uidOf = new Map(wearers.map((w) => [w.bracelet.serialNumber, w.uid]));
  let missing = 0;
  for (const b of batches) {
    if (!acknowledged.has(b.batchId)) continue;
    for (const r of b.body.readings)
      if (!stored.has(`${uidOf.get(r.serialNumber)}|${r.at}`)) missing++;
  }
  return missing;
}

/**
 * Sends every batch as a gateway over MQTT (QoS 1, `window` in flight): a batch counts as
 * acknowledged when its PUBACK arrives; one without a PUBACK in 15 s (the connection dropped) is
 * published again, which is safe (idempotency). Throws when `deadline` passes first.
 */
export async function sendAllOverMqtt(
  url: string,
  gateway: { id: string; credential: string },
  batches: LoadBatch[],
  opts: {
    deadline: number;
    window?: number;
    onAck?: (acked: number) => void;
    clientId?: string;
    /**
     * Acknowledged only when the server's result arrives on gateways/<id>/results (re-published
     * every 10 s until then): what a gateway behind an external broker relies on, since that
     * broker's PUBACK says only that the broker has it.
     */
    untilResult?: boolean;
  },
): Promise<Set<string>> {
  const { default: mqtt } = await import('mqtt');
  const client = mqtt.connect(url, {
    username: gateway.id,
    password: gateway.credential,
    clientId: opts.clientId ?? gateway.id,
    reconnectPeriod: 300,
    connectTimeout: 5_000,
  });
  client.on('error', () => undefined);
  // Connected once (the broker may still be starting; the client retries every 300 ms).
  await new Promise<void>((resolve) => client.once('connect', () => resolve()));
  const results = new Set<string>();
  if (opts.untilResult) {
    client.on('message', (_topic, payload) => {
      const id = (JSON.parse(payload.toString()) as { batchId?: string }).batchId;
      if (id) results.add(id);
    });
    await client.subscribeAsync(`gateways/${gateway.id}/results`, { qos: 1 });
  }
  const resultOf = async (batchId: string) => {
    const end = Date.now() + 10_000;
    while (!results.has(batchId) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    return results.has(batchId);
  };
  const acknowledged = new Set<string>();
  const queue = [...batches];
  const worker = async () => {
    for (let batch = queue.shift(); batch; batch = queue.shift()) {
      for (;;) {
        if (Date.now() > opts.deadline)
          throw new Error(`batch ${batch.batchId} not acknowledged before the deadline`);
        const ok = await Promise.race([
          client
            .publishAsync(`gateways/${gateway.id}/batches`, JSON.stringify(batch.body), { qos: 1 })
            .then(
              () => true,
              () => false,
            ),
          new Promise<false>((r) => setTimeout(() => r(false), 15_000)),
        ]);
        if (ok && (!opts.untilResult || (await resultOf(batch.batchId)))) {
          acknowledged.add(batch.batchId);
          opts.onAck?.(acknowledged.size);
          break;
        }
        await new Promise((r) => setTimeout(r, 300));
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: opts.window ?? 4 }, worker));
  } finally {
    await client.endAsync(true).catch(() => undefined);
  }
  return acknowledged;
}
