import type { Queryable } from '../db/client.js';
import type { WearerProfile } from './types.js';

/**
 * Locks the engine_state rows of these wearers for this transaction (creating missing rows
 * with the initial state first), in wearer order so concurrent batches never deadlock.
 * Returns each row's version; several servers on one PostgreSQL serialise per wearer here.
 */
export async function lockStates(
  tx: Queryable,
  wearerIds: string[],
  initialStateJson: string,
): Promise<Map<string, number>> {
  const ids = [...new Set(wearerIds)].sort();
  const lock = (list: string[]) =>
    tx.query<{ wearerId: string; version: number }>(
      `SELECT wearer_id AS "wearerId", version FROM engine_state
        WHERE wearer_id = ANY($1::text[]) ORDER BY wearer_id FOR UPDATE`,
      [list],
    );
  const versions = new Map<string, number>();
  for (const row of await lock(ids)) versions.set(row.wearerId, Number(row.version));
  const missing = ids.filter((id) => !versions.has(id));
  if (missing.length > 0) {
    await tx.query(
      `INSERT INTO engine_state (wearer_id, state, version)
       SELECT id, $2::jsonb, 0 FROM unnest($1::text[]) AS id
       ON CONFLICT DO NOTHING`,
      [missing, initialStateJson],
    );
    for (const row of await lock(missing)) versions.set(row.wearerId, Number(row.version));
  }
  return versions;
}

export async function loadStates(
  tx: Queryable,
  wearerIds: string[],
): Promise<{ wearerId: string; state: unknown; version: number }[]> {
  if (wearerIds.length === 0) return [];
  const rows = await tx.query<{ wearerId: string; state: unknown; version: number }>(
    `SELECT wearer_id AS "wearerId", state, version FROM engine_state
      WHERE wearer_id = ANY($1::text[])`,
    [wearerIds],
  );
  return rows.map((r) => ({ ...r, version: Number(r.version) }));
}

/** Saves changed states in one statement; returns the new versions. */
export async function saveStates(
  tx: Queryable,
  rows: { wearerId: string; stateJson: string; lastReadingAt: Date | null }[],
): Promise<Map<string, number>> {
  const versions = new Map<string, number>();
  if (rows.length === 0) return versions;
  const saved = await tx.query<{ wearerId: string; version: number }>(
    `UPDATE engine_state e
        SET state = x.state::jsonb, version = e.version + 1, updated_at = now(),
            last_reading_at = greatest(e.last_reading_at, x.last_reading_at)
       FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS x(wearer_id, state, last_reading_at)
      WHERE e.wearer_id = x.wearer_id
      RETURNING e.wearer_id AS "wearerId", e.version`,
    [
      rows.map((r) => r.wearerId),
      rows.map((r) => r.stateJson),
      rows.map((r) => r.lastReadingAt?.toISOString() ?? null),
    ],
  );
  for (const row of saved) versions.set(row.wearerId, Number(row.version));
  return versions;
}

/** What the engine needs about each wearer: age, duty cycle, time zone, settings. */
export async function loadProfiles(
  db: Queryable,
  wearerIds: string[],
  now: Date,
): Promise<Map<string, WearerProfile & { braceletId: string | null }>> {
  const rows = await db.query<{
    wearerId: string;
    organizationId: string;
    groupId: string | null;
    age: number | null;
    dutyCycleMinutes: number | null;
    timeZone: string;
    settings: unknown;
    braceletId: string | null;
  }>(
    `SELECT u.id AS "wearerId", u.organization_id AS "organizationId", u.group_id AS "groupId",
            CASE WHEN u.birth_date IS NULL THEN NULL
                 ELSE extract(year FROM age($2::timestamptz::date, u.birth_date))::int END AS age,
            b.heart_rate_duty_cycle AS "dutyCycleMinutes", b.id AS "braceletId",
            o.time_zone AS "timeZone", s.settings
       FROM users u
       JOIN organizations o ON o.id = u.organization_id
       LEFT JOIN bracelets b ON b.wearer_id = u.id
       LEFT JOIN wearer_alert_settings s ON s.wearer_id = u.id
      WHERE u.id = ANY($1::text[])`,
    [wearerIds, now.toISOString()],
  );
  return new Map(
    rows.map((r) => [
      r.wearerId,
      {
        wearerId: r.wearerId,
        organizationId: r.organizationId,
        groupId: r.groupId,
        age: r.age,
        dutyCycleMinutes: r.dutyCycleMinutes ?? 1,
        timeZone: r.timeZone,
        settings: r.settings ?? {},
        braceletId: r.braceletId,
      },
    ]),
  );
}

/** Wearers who wear a bracelet now: the ticker's population. */
export async function listMonitoredWearers(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ wearerId: string }>(
    `SELECT b.wearer_id AS "wearerId" FROM bracelets b
       JOIN users u ON u.id = b.wearer_id AND u.deleted_at IS NULL
      ORDER BY b.wearer_id`,
  );
  return rows.map((r) => r.wearerId);
}
