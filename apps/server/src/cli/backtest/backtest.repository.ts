import type { AlertType, DeviceEventType, FallCause } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { recoveryMinutesOf } from '../../engine/settings.js';
import type { EngineInput, WearerProfile } from '../../engine/types.js';
import type { StoredAlertTally } from '../../engine/backtest/replay.js';

/** What the backtest reads: stored readings, device events and alerts. It writes nothing. */

export interface BacktestWearer extends WearerProfile {
  name: string;
}

export async function organizationExists(db: Queryable, organizationId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId]);
  return rows.length > 0;
}

/** The organisation's wearers with a bracelet (the engine's population), age as of `at`. */
export async function listBacktestWearers(
  db: Queryable,
  organizationId: string,
  at: Date,
): Promise<BacktestWearer[]> {
  const rows = await db.query<
    Omit<BacktestWearer, 'recoveryMinutes'> & { dutyCycleMinutes: number | null; recovery: unknown }
  >(
    `SELECT u.id AS "wearerId", u.name, u.organization_id AS "organizationId", u.group_id AS "groupId",
            CASE WHEN u.birth_date IS NULL THEN NULL
                 ELSE extract(year FROM age($2::timestamptz::date, u.birth_date))::int END AS age,
            b.heart_rate_duty_cycle AS "dutyCycleMinutes", o.time_zone AS "timeZone",
            coalesce(s.settings, '{}'::jsonb) AS settings, p.policy -> 'recoveryMinutes' AS recovery
       FROM bracelets b
       JOIN users u ON u.id = b.wearer_id AND u.deleted_at IS NULL
       JOIN organizations o ON o.id = u.organization_id
       LEFT JOIN wearer_alert_settings s ON s.wearer_id = u.id
       LEFT JOIN organization_alert_policies p ON p.organization_id = u.organization_id
      WHERE u.organization_id = $1
      ORDER BY u.name, u.id`,
    [organizationId, at.toISOString()],
  );
  return rows.map(({ recovery, ...r }) => ({
    ...r,
    dutyCycleMinutes: r.dutyCycleMinutes ?? 1,
    recoveryMinutes: recoveryMinutesOf(recovery),
  }));
}

interface ReadingRow {
  at: Date;
  heartRate: number | null;
  skinTemperature: number | null;
  worn: boolean | null;
  steps: number | null;
  sleepStage: number | null;
  stressLevel: string | null;
  battery: number | null;
  wbgt: number | null;
}

/**
 * One wearer's engine inputs of [from, to): readings (with the WBGT stored on them), device
 * events, and the staff confirmations of that period (a confirmation closes the open alert of
 * its type in the replay as it did on the day).
 */
export async function loadWearerInputs(
  db: Queryable,
  wearerId: string,
  from: Date,
  to: Date,
): Promise<EngineInput[]> {
  const range = [wearerId, from.toISOString(), to.toISOString()];
  const readings = await db.query<ReadingRow>(
    `SELECT at, heart_rate AS "heartRate", skin_temperature AS "skinTemperature", worn, steps,
            sleep_stage AS "sleepStage", stress_level AS "stressLevel", battery, wbgt
       FROM readings WHERE wearer_id = $1 AND at >= $2 AND at < $3 ORDER BY at`,
    range,
  );
  const events = await db.query<{ at: Date; type: DeviceEventType; cause: FallCause | null }>(
    `SELECT at, type, cause FROM device_events
      WHERE wearer_id = $1 AND at >= $2 AND at < $3 ORDER BY at`,
    range,
  );
  const confirmations = await db.query<{ at: Date; type: AlertType }>(
    `SELECT closed_at AS at, type FROM alerts
      WHERE wearer_id = $1 AND close_reason = 'confirmed' AND closed_at >= $2 AND closed_at < $3`,
    range,
  );
  return [
    ...readings.map(readingInput),
    ...events.map((e): EngineInput => ({
      kind: 'event',
      at: new Date(e.at),
      type: e.type,
      ...(e.cause ? { cause: e.cause } : {}),
    })),
    ...confirmations.map((c): EngineInput => ({
      kind: 'confirm',
      at: new Date(c.at),
      alertType: c.type,
    })),
  ];
}

function readingInput(r: ReadingRow): EngineInput {
  const input: EngineInput = { kind: 'reading', at: new Date(r.at) };
  if (r.heartRate !== null) input.heartRate = r.heartRate;
  if (r.skinTemperature !== null) input.skinTemperature = r.skinTemperature;
  if (r.worn !== null) input.worn = r.worn;
  if (r.steps !== null) input.steps = r.steps;
  if (r.sleepStage !== null) input.sleepStage = r.sleepStage as 1 | 2 | 3 | 4;
  if (r.stressLevel !== null)
    input.stressLevel = r.stressLevel as NonNullable<typeof input.stressLevel>;
  if (r.battery !== null) input.battery = r.battery;
  if (r.wbgt !== null) input.wbgt = r.wbgt;
  return input;
}

/** The alerts actually stored for the organisation, opened in [from, to), per wearer and type. */
export async function storedAlertTallies(
  db: Queryable,
  organizationId: string,
  from: Date,
  to: Date,
): Promise<StoredAlertTally[]> {
  const rows = await db.query<{ wearerId: string; type: AlertType; count: number; firstAt: Date }>(
    `SELECT wearer_id AS "wearerId", type, count(*)::int AS count, min(opened_at) AS "firstAt"
       FROM alerts WHERE organization_id = $1 AND opened_at >= $2 AND opened_at < $3
      GROUP BY wearer_id, type`,
    [organizationId, from.toISOString(), to.toISOString()],
  );
  return rows.map((r) => ({ ...r, count: Number(r.count), firstAt: new Date(r.firstAt) }));
}
