import { bareReportPhoneDeliveryFailure } from '@wearable/domain';
import { type BatchBody, type Db, type Enrolment, type ItemList, getKv, setKv } from './store';

/** The native gateway ingestion endpoint (docs/gateway-protocol.md), not a console API. */
export const BATCHES_URL = '/gateway/v1/batches';
/** Readings wait this long for company before they leave (one request, not one per notification). */
export const FLUSH_MS = 3000;
const MAX_ITEMS = 500;
const MAX_BACKOFF_MS = 30_000;
/** An SOS or fall the server has not answered for this long is shown as not delivered (still retried). */
export const URGENT_RETRY_WINDOW_MS = 15_000;
/** A refused SOS or fall is sent again after this long (staff may have fixed the pairing meanwhile)… */
export const REFUSED_RETRY_MS = 30_000;
/** …for this long after it happened. */
const REFUSED_RETRY_FOR_MS = 60 * 60_000;
/** The phone's report of an SOS or fall it could not deliver (docs/phone-gateway.md). */
export const DELIVERY_FAILURE_URL = bareReportPhoneDeliveryFailure.path;

/** An SOS or FALL as the phone queued it. */
export interface UrgentEvent {
  serialNumber: string;
  type: 'SOS' | 'FALL';
  at: string;
}

/** Whether the server took an SOS or FALL: `delivered` only when it said so; else why not. */
export interface UrgentOutcome {
  event: UrgentEvent;
  delivered: boolean;
  reason: string | null;
}

interface ResultShape {
  accepted?: unknown;
  duplicates?: unknown;
  rejected?: unknown;
}

const isUrgent = (item: Record<string, unknown>): item is Record<string, unknown> & UrgentEvent =>
  (item.type === 'SOS' || item.type === 'FALL') &&
  typeof item.at === 'string' &&
  typeof item.serialNumber === 'string';

/** The SOS and FALL events of a batch, with their index in its `events` list. */
function urgentEventsOf(body: BatchBody): { index: number; event: UrgentEvent }[] {
  return (body.events ?? []).flatMap((item, index) =>
    isUrgent(item)
      ? [{ index, event: { serialNumber: item.serialNumber, type: item.type, at: item.at } }]
      : [],
  );
}

/** Every SOS and FALL of a batch that did not reach the server, for one reason. */
export function undelivered(body: BatchBody, reason: string): UrgentOutcome[] {
  return urgentEventsOf(body).map(({ event }) => ({ event, delivered: false, reason }));
}

/**
 * The server's answer (a protocol BatchResult) for each SOS and FALL of the batch: delivered only
 * when no `rejected` entry names its index in `events` and the answer counts it (`accepted`, or
 * `duplicates` for a re-send of one already stored). An answer that is not a BatchResult, or counts
 * fewer items than it did not refuse, delivers nothing: the phone never says "sent" on a guess.
 */
export function urgentOutcomes(body: BatchBody, result: unknown): UrgentOutcome[] {
  const r = (result ?? {}) as ResultShape;
  const rejected = Array.isArray(r.rejected)
    ? (r.rejected as { list?: unknown; index?: unknown; reason?: unknown }[])
    : null;
  if (typeof r.accepted !== 'number' || rejected === null)
    return undelivered(body, 'the server gave no readable answer');
  const refusedEvents = new Map<number, string>();
  for (const entry of rejected)
    if (entry.list === 'events' && typeof entry.index === 'number')
      refusedEvents.set(entry.index, typeof entry.reason === 'string' ? entry.reason : 'refused');
  const items =
    (body.readings?.length ?? 0) + (body.events?.length ?? 0) + (body.pairings?.length ?? 0);
  const counted = r.accepted + (typeof r.duplicates === 'number' ? r.duplicates : 0);
  const countedAll = counted >= items - rejected.length;
  return urgentEventsOf(body).map(({ index, event }) => {
    const refused = refusedEvents.get(index);
    if (refused !== undefined) return { event, delivered: false, reason: refused };
    if (!countedAll)
      return { event, delivered: false, reason: 'the server did not count it as stored' };
    return { event, delivered: true, reason: null };
  });
}

export interface OutboxStatus {
  /** Items measured and not yet acknowledged by the server. */
  queued: number;
  lastAckAt: string | null;
  /** The last failure to send (offline, server error), cleared by the next acknowledgement. */
  failing: boolean;
  /** Reasons the server gave for refusing items (unknown bracelet, out of range), newest first. */
  refusals: string[];
}

type Lane = 'urgent' | 'normal';

interface Deps {
  db: Db;
  enrolment: () => Enrolment | null;
  /** 401/403: the gateway was retired or its credential rotated. */
  onSignedOut: (status: number) => void;
  onChange: (status: OutboxStatus) => void;
  /** A result's `gatewaySettings`: the organisation's settings the phone follows (unchecked here). */
  onSettings?: (settings: unknown) => void;
  /** What became of each SOS and FALL sent: delivered, or not (refused, no answer, signed out). */
  onUrgent?: (outcomes: UrgentOutcome[]) => void;
  fetch?: typeof fetch;
}

/**
 * Everything measured goes first to IndexedDB, then leaves as protocol batches. A batch is formed once, stored,
 * and re-sent unchanged until the server answers 200 (items are idempotent by the protocol's identities, so a
 * re-send after a lost answer stores nothing twice). Two lanes: SOS and FALL form their own batches and are sent
 * at once, beside whatever reading batch is in flight.
 */
export class Outbox {
  private status: OutboxStatus = { queued: 0, lastAckAt: null, failing: false, refusals: [] };
  private readonly inFlight: Record<Lane, boolean> = { urgent: false, normal: false };
  private readonly timers: Record<Lane, ReturnType<typeof setTimeout> | null> = {
    urgent: null,
    normal: null,
  };
  private readonly backoff: Record<Lane, number> = { urgent: 0, normal: 0 };
  private stopped = false;
  private readonly doFetch: typeof fetch;
  /** Since when the urgent lane's current batch has gone unanswered, and whether that was said. */
  private urgentFailing: { seq: number; since: number; told: boolean } | null = null;
  /** Failures not yet told to the server (it could not be reached), oldest first. */
  private pendingReports: { type: 'SOS' | 'FALL'; at: string; reason: string }[] = [];
  private readonly reported = new Set<string>();

  constructor(private readonly deps: Deps) {
    this.doFetch = deps.fetch ?? ((...args) => fetch(...args));
  }

  async start(): Promise<void> {
    this.status.lastAckAt = (await getKv(this.deps.db, 'lastAckAt')) ?? null;
    await this.recount();
    this.kick('urgent', 0);
    this.kick('normal', 0);
  }

  stop(): void {
    this.stopped = true;
    for (const lane of ['urgent', 'normal'] as const) {
      const timer = this.timers[lane];
      if (timer) clearTimeout(timer);
    }
  }

  /** The network came back: try at once instead of waiting out the backoff. */
  retryNow(): void {
    this.backoff.urgent = 0;
    this.backoff.normal = 0;
    this.kick('urgent', 0, true);
    this.kick('normal', 0, true);
  }

  async add(list: ItemList, item: Record<string, unknown>, urgent = false): Promise<void> {
    await this.deps.db.add('items', { list, item, urgent });
    this.status = { ...this.status, queued: this.status.queued + 1 };
    this.deps.onChange(this.status);
    this.kick(urgent ? 'urgent' : 'normal', urgent ? 0 : FLUSH_MS);
  }

  private kick(lane: Lane, delayMs: number, replace = false): void {
    if (this.stopped) return;
    if (this.timers[lane] && !replace) return;
    if (this.timers[lane]) clearTimeout(this.timers[lane]);
    this.timers[lane] = setTimeout(() => {
      this.timers[lane] = null;
      void this.pump(lane);
    }, delayMs);
  }

  private async recount(): Promise<void> {
    const { db } = this.deps;
    const items = await db.count('items');
    const batches = await db.getAll('batches');
    this.status = { ...this.status, queued: items + batches.reduce((n, b) => n + b.count, 0) };
    this.deps.onChange(this.status);
  }

  /** Sends this lane's batches one after the other until none is left or one fails. */
  private async pump(lane: Lane): Promise<void> {
    if (this.inFlight[lane] || this.stopped) return;
    const enrolment = this.deps.enrolment();
    if (!enrolment) return;
    this.inFlight[lane] = true;
    try {
      for (;;) {
        const batch = (await this.nextBatch(lane)) ?? (await this.formBatch(lane, enrolment));
        if (!batch) return;
        const outcome = await this.send(batch.body, enrolment, lane === 'urgent');
        if (outcome === 'retry' && lane === 'urgent') this.urgentUnanswered(batch);
        if (outcome === 'retry') {
          this.status = { ...this.status, failing: true };
          this.deps.onChange(this.status);
          this.backoff[lane] = Math.min(MAX_BACKOFF_MS, Math.max(1000, this.backoff[lane] * 2));
          this.kick(lane, this.backoff[lane]);
          return;
        }
        if (outcome === 'signedOut') {
          if (lane === 'urgent')
            this.tell(undelivered(JSON.parse(batch.body) as BatchBody, 'signed out (HTTP 401)'));
          return;
        }
        if (lane === 'urgent') this.urgentFailing = null;
        await this.deps.db.delete('batches', batch.seq);
        this.backoff[lane] = 0;
        await this.recount();
      }
    } finally {
      this.inFlight[lane] = false;
    }
  }

  private async nextBatch(lane: Lane) {
    const all = await this.deps.db.getAll('batches');
    return all.find((b) => b.urgent === (lane === 'urgent')) ?? null;
  }

  /** Moves up to MAX_ITEMS of this lane's items into one stored batch, in one transaction. */
  private async formBatch(lane: Lane, enrolment: Enrolment) {
    const tx = this.deps.db.transaction(['items', 'batches', 'kv'], 'readwrite');
    const lists: Record<ItemList, Record<string, unknown>[]> = {
      readings: [],
      events: [],
      pairings: [],
    };
    let count = 0;
    let cursor = await tx.objectStore('items').openCursor();
    while (cursor && count < MAX_ITEMS) {
      if (cursor.value.urgent === (lane === 'urgent')) {
        lists[cursor.value.list].push(cursor.value.item);
        count += 1;
        await cursor.delete();
      }
      cursor = await cursor.continue();
    }
    if (count === 0) {
      await tx.done;
      return null;
    }
    const kv = tx.objectStore('kv');
    const seq = ((await kv.get('nextSeq')) as number | undefined) ?? 1;
    await kv.put(seq + 1, 'nextSeq');
    const body: BatchBody = { batchId: `${enrolment.gatewayId}-${seq}`.slice(0, 128) };
    for (const list of ['readings', 'events', 'pairings'] as const)
      if (lists[list].length > 0) body[list] = lists[list];
    const batch = { seq, urgent: lane === 'urgent', count, body: JSON.stringify(body) };
    await tx.objectStore('batches').put(batch);
    await tx.done;
    return batch;
  }

  /** The urgent batch still has no answer: past the retry window its SOS or fall is not delivered (once). */
  private urgentUnanswered(batch: { seq: number; body: string }): void {
    const now = Date.now();
    if (this.urgentFailing?.seq !== batch.seq)
      this.urgentFailing = { seq: batch.seq, since: now, told: false };
    if (this.urgentFailing.told || now - this.urgentFailing.since < URGENT_RETRY_WINDOW_MS) return;
    this.urgentFailing.told = true;
    this.tell(undelivered(JSON.parse(batch.body) as BatchBody, 'no answer from the server'));
  }

  /** Outcomes to the screen; failures to the server (once each, when it can be reached); refusals again later. */
  private tell(outcomes: UrgentOutcome[]): void {
    if (outcomes.length === 0) return;
    this.deps.onUrgent?.(outcomes);
    for (const { event, delivered, reason } of outcomes) {
      if (delivered || reason === null) continue;
      const key = `${event.type}|${event.at}|${reason}`;
      if (!this.reported.has(key)) {
        this.reported.add(key);
        this.pendingReports.push({ type: event.type, at: event.at, reason });
      }
    }
    void this.flushReports();
  }

  /** A refused SOS or fall goes again later, unchanged (the server stores an event once). */
  private retryRefused(outcomes: UrgentOutcome[]): void {
    const refused = outcomes.filter(
      (o) => !o.delivered && Date.now() - Date.parse(o.event.at) < REFUSED_RETRY_FOR_MS,
    );
    if (refused.length === 0) return;
    setTimeout(() => {
      if (this.stopped) return;
      for (const { event } of refused) void this.add('events', { ...event }, true);
    }, REFUSED_RETRY_MS);
  }

  /** "Phone gateway X could not deliver an SOS: reason", for staff; kept until the server is reached. */
  private async flushReports(): Promise<void> {
    const enrolment = this.deps.enrolment();
    while (enrolment && this.pendingReports.length > 0) {
      const report = this.pendingReports[0]!;
      try {
        const response = await this.doFetch(DELIVERY_FAILURE_URL, {
          method: 'POST',
          headers: {
            authorization: `Gateway ${enrolment.gatewayId}:${enrolment.credential}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ ...report, reason: report.reason.slice(0, 300) }),
        });
        // 5xx: the server is there but not well; try with the next acknowledgement.
        if (response.status >= 500) return;
      } catch {
        return;
      }
      this.pendingReports.shift();
    }
  }

  private async send(
    body: string,
    enrolment: Enrolment,
    urgent = false,
  ): Promise<'acknowledged' | 'retry' | 'signedOut'> {
    let response: Response;
    try {
      response = await this.doFetch(BATCHES_URL, {
        method: 'POST',
        headers: {
          authorization: `Gateway ${enrolment.gatewayId}:${enrolment.credential}`,
          'content-type': 'application/json',
        },
        body,
      });
    } catch {
      return 'retry';
    }
    if (response.status === 401 || response.status === 403) {
      this.deps.onSignedOut(response.status);
      return 'signedOut';
    }
    // A malformed batch (400) or one too large (413) will never be taken: keep it out of the way, say so.
    if (response.status === 400 || response.status === 413) {
      this.refused([`HTTP ${response.status}`]);
      if (urgent) {
        const outcomes = undelivered(JSON.parse(body) as BatchBody, `HTTP ${response.status}`);
        this.tell(outcomes);
        this.retryRefused(outcomes);
      }
      return 'acknowledged';
    }
    if (!response.ok) return 'retry';
    const result = (await response.json().catch(() => null)) as {
      rejected?: { reason: string }[];
      gatewaySettings?: unknown;
    } | null;
    if (result?.gatewaySettings !== undefined) this.deps.onSettings?.(result.gatewaySettings);
    const now = new Date().toISOString();
    await setKv(this.deps.db, 'lastAckAt', now);
    this.status = { ...this.status, lastAckAt: now, failing: false };
    this.refused((result?.rejected ?? []).map((r) => r.reason));
    if (urgent) {
      const outcomes = urgentOutcomes(JSON.parse(body) as BatchBody, result);
      this.tell(outcomes);
      this.retryRefused(outcomes);
    } else void this.flushReports();
    return 'acknowledged';
  }

  private refused(reasons: string[]): void {
    const refusals = [...new Set([...reasons, ...this.status.refusals])].slice(0, 3);
    this.status = { ...this.status, refusals };
    this.deps.onChange(this.status);
  }
}
