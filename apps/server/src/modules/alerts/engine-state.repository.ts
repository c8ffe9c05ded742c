import { KIND_ALERT_DEFAULTS, organizationKindOf } from '@wearable/domain';
import { prepared, type Queryable } from '../../db/client.js';
import { runCombined, type Statement } from '../../db/statement.js';
import { recoveryMinutesOf } from '../../engine/settings.js';
import type { WearerProfile } from '../../engine/types.js';

export type Profile = WearerProfile & { braceletId: string | null };

export interface Locked {
  versions: Map<string, number>;
  profiles: Map<string, Profile>;
  /** Each wearer's stored place row (wearer_places), read with the lock: the batch's place fold needs it. */
  places: Map<string, { state: unknown; position: unknown }>;
}

const PROFILE_SELECT = `
  SELECT e.wearer_id AS "wearerId", e.version, u.organization_id AS "organizationId",
         u.group_id AS "groupId",
         CASE WHEN u.birth_date IS NULL THEN NULL
              ELSE extract(year FROM age($2::timestamptz::date, u.birth_date))::int END AS age,
         b.heart_rate_duty_cycle AS "dutyCycleMinutes", b.id AS "braceletId",
         o.time_zone AS "timeZone", o.kind, s.settings, p.policy -> 'recoveryMinutes' AS "recoveryMinutes",
         wp.state AS "placeState", wp.position AS "placePosition"
    FROM engine_state e
    JOIN users u ON u.id = e.wearer_id
    JOIN organizations o ON o.id = u.organization_id
    LEFT JOIN bracelets b ON b.wearer_id = u.id
    LEFT JOIN wearer_alert_settings s ON s.wearer_id = u.id
    LEFT JOIN organization_alert_policies p ON p.organization_id = u.organization_id
    LEFT JOIN wearer_places wp ON wp.wearer_id = e.wearer_id
   WHERE e.wearer_id = ANY($1::text[])
   ORDER BY e.wearer_id`;
const LOCK_AND_PROFILE = prepared(`${PROFILE_SELECT}
     FOR UPDATE OF e`);
/** The same, read without the lock (an SOS opening before the engine's turn, urgent-open.ts). */
const READ_PROFILE = prepared(PROFILE_SELECT);

interface LockRow {
  wearerId: string;
  version: number;
  organizationId: string;
  groupId: string | null;
  age: number | null;
  dutyCycleMinutes: number | null;
  braceletId: string | null;
  timeZone: string;
  kind: string;
  settings: unknown;
  /** The stored policy's field as is (jsonb), or null without a policy row. */
  recoveryMinutes: unknown;
  placeState: unknown;
  placePosition: unknown;
}

/**
 * Locks the engine_state rows of these wearers for this transaction (creating missing rows
 * with the initial state first), in wearer order so concurrent batches never deadlock, and
 * reads what the engine needs about each wearer (age, duty cycle, time zone, settings, the
 * organisation's recovery window) in the same round trip. Several servers on one PostgreSQL serialise per wearer here.
 */
async function lockStates(
  tx: Queryable,
  wearerIds: string[],
  initialStateJson: string,
  now: Date,
): Promise<Locked> {
  const ids = [...new Set(wearerIds)].sort();
  const locked: Locked = { versions: new Map(), profiles: new Map(), places: new Map() };
  if (ids.length === 0) return locked;
  const lock = async (list: string[]) =>
    addRows(locked, await tx.query<LockRow>(LOCK_AND_PROFILE, [list, now.toISOString()]));
  await lock(ids);
  const missing = ids.filter((id) => !locked.versions.has(id));
  if (missing.length > 0) {
    await tx.query(
      `INSERT INTO engine_state (wearer_id, state, version)
       SELECT x.id, $2::jsonb, 0 FROM unnest($1::text[]) AS x(id)
       WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = x.id)
       ON CONFLICT DO NOTHING`,
      [missing, initialStateJson],
    );
    await lock(missing);
  }
  return locked;
}

function addRows(into: Locked, rows: LockRow[]): void {
  for (const r of rows) {
    into.versions.set(r.wearerId, Number(r.version));
    if (r.placeState !== null || r.placePosition !== null)
      into.places.set(r.wearerId, { state: r.placeState, position: r.placePosition });
    into.profiles.set(r.wearerId, {
      wearerId: r.wearerId,
      organizationId: r.organizationId,
      groupId: r.groupId,
      age: r.age,
      dutyCycleMinutes: r.dutyCycleMinutes ?? 1,
      timeZone: r.timeZone,
      // No stored settings: the organisation kind's defaults, one shared frozen object per kind, so
      // the engine's per-object cache of resolved settings hits.
      settings: r.settings ?? KIND_ALERT_DEFAULTS[organizationKindOf(r.kind)],
      recoveryMinutes: recoveryMinutesOf(r.recoveryMinutes),
      braceletId: r.braceletId,
    });
  }
}

/**
 * What lockStates reads, without the lock and without creating missing rows: the last committed
 * profiles, versions and places of the wearers that have an engine state.
 */
async function readStatesUnlocked(tx: Queryable, wearerIds: string[], now: Date): Promise<Locked> {
  const read: Locked = { versions: new Map(), profiles: new Map(), places: new Map() };
  const ids = [...new Set(wearerIds)];
  if (ids.length > 0)
    addRows(read, await tx.query<LockRow>(READ_PROFILE, [ids, now.toISOString()]));
  return read;
}

const LOAD_STATES = prepared(
  `SELECT wearer_id AS "wearerId", state, version FROM engine_state WHERE wearer_id = ANY($1::text[])`,
);

async function loadStates(
  tx: Queryable,
  wearerIds: string[],
): Promise<{ wearerId: string; state: unknown; version: number }[]> {
  if (wearerIds.length === 0) return [];
  const rows = await tx.query<{ wearerId: string; state: unknown; version: number }>(LOAD_STATES, [
    wearerIds,
  ]);
  return rows.map((r) => ({ ...r, version: Number(r.version) }));
}

/** Saves changed states in one statement (RETURNING the new versions). */
function saveStatesStatement(
  rows: { wearerId: string; stateJson: string; lastReadingAt: Date | null }[],
): Statement | null {
  if (rows.length === 0) return null;
  return {
    text: `UPDATE engine_state e
        SET state = x.state::jsonb, version = e.version + 1, updated_at = now(),
            last_reading_at = greatest(e.last_reading_at, x.last_reading_at)
       FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS x(wearer_id, state, last_reading_at)
      WHERE e.wearer_id = x.wearer_id
      RETURNING e.wearer_id AS "wearerId", e.version`,
    params: [
      rows.map((r) => r.wearerId),
      rows.map((r) => r.stateJson),
      rows.map((r) => r.lastReadingAt?.toISOString() ?? null),
    ],
  };
}

/**
 * Saves the changed states, together with `alsoRun` (independent writes of the same batch)
 * in one round trip; returns the new versions.
 */
async function saveStates(
  tx: Queryable,
  rows: { wearerId: string; stateJson: string; lastReadingAt: Date | null }[],
  alsoRun: (Statement | null)[] = [],
  /** The transaction's last statement: it commits with it (runCombined). */
  last = false,
): Promise<Map<string, number>> {
  const saved = await runCombined<{ wearerId: string; version: number }>(
    tx,
    alsoRun,
    saveStatesStatement(rows),
    last,
  );
  return new Map(saved.map((r) => [r.wearerId, Number(r.version)]));
}

/** Wearers who wear a bracelet now: the ticker's population. */
async function listMonitoredWearers(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ wearerId: string }>(
    `SELECT b.wearer_id AS "wearerId" FROM bracelets b
       JOIN users u ON u.id = b.wearer_id AND u.deleted_at IS NULL
      ORDER BY b.wearer_id`,
  );
  return rows.map((r) => r.wearerId);
}

/** The engine's state (engine_state) in `tx`: locked, read, saved; and the ticker's population. */
export function engineStateRepository(tx: Queryable) {
  return {
    lock: (wearerIds: string[], initialStateJson: string, now: Date) =>
      lockStates(tx, wearerIds, initialStateJson, now),
    readUnlocked: (wearerIds: string[], now: Date) => readStatesUnlocked(tx, wearerIds, now),
    load: (wearerIds: string[]) => loadStates(tx, wearerIds),
    save: (
      rows: Parameters<typeof saveStates>[1],
      alsoRun: (Statement | null)[] = [],
      last = false,
    ) => saveStates(tx, rows, alsoRun, last),
    monitoredWearers: () => listMonitoredWearers(tx),
  };
}
