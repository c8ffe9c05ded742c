import {
  ALERT_TYPES,
  alertSettings,
  alertSettingsPatch,
  mergeAlertSettings,
  type AlertSettingsPatch,
  type AlertType,
} from '@wearable/domain';
import { z } from 'zod';
import type { Queryable } from '../../db/client.js';
import { CORE_SESSION_GAP_MS } from '../../engine/rules/core-temperature.rule.js';
import { usableSettings } from '../../engine/settings.js';
import {
  listBacktestWearers,
  loadWearerInputs,
  organizationExists,
  storedAlertTallies,
} from './backtest.repository.js';
import {
  compareAlerts,
  replayWearer,
  type AlertTally,
  type BacktestRow,
  type FiredAlert,
} from '../../engine/backtest/replay.js';

/** A refusal of the backtest's input, one line naming the field. */
export class BacktestInputError extends Error {}

/** Longest period one run replays (readings are kept 30 days by default). */
export const BACKTEST_MAX_DAYS = 92;
/** Replay starts this long before `from`, so ECTemp and windows are warm at `from`. */
export const BACKTEST_WARMUP_MS = CORE_SESSION_GAP_MS;

export interface BacktestRequest {
  organizationId: string;
  from: Date;
  to: Date;
  /** The proposed rule set: a settings patch applied to every wearer's stored settings; null = as stored. */
  rules: AlertSettingsPatch | null;
}

export interface BacktestReport {
  organizationId: string;
  from: string;
  to: string;
  warmupMinutes: number;
  wearers: number;
  readings: number;
  rows: BacktestRow[];
  totals: { type: AlertType; proposed: number; stored: number }[];
}

/** Parses a rule-set file's JSON (a settings patch); throws naming the bad field. */
export function parseRules(json: unknown): AlertSettingsPatch {
  const parsed = alertSettingsPatch.safeParse(json);
  if (parsed.success) return parsed.data;
  const messages = parsed.error.issues.map((i) =>
    i.code === 'unrecognized_keys' ? `unknown field ${i.keys.join(', ')}` : i.message,
  );
  throw new BacktestInputError(`rules: ${messages.join('; ')}`);
}

export function checkPeriod(from: Date, to: Date): void {
  if (Number.isNaN(from.getTime()))
    throw new BacktestInputError('--from must be a date (ISO 8601)');
  if (Number.isNaN(to.getTime())) throw new BacktestInputError('--to must be a date (ISO 8601)');
  if (to <= from) throw new BacktestInputError('--to must be after --from');
  if (to.getTime() - from.getTime() > BACKTEST_MAX_DAYS * 86_400_000) {
    throw new BacktestInputError(`--from..--to must span at most ${BACKTEST_MAX_DAYS} days`);
  }
}

/** The wearer's settings under the proposed rules (their own values for what the rules leave out). */
function proposedSettings(
  wearerName: string,
  stored: unknown,
  rules: AlertSettingsPatch | null,
): unknown {
  if (!rules) return stored;
  const merged = alertSettings.safeParse({ ...usableSettings(stored) });
  try {
    return mergeAlertSettings(merged.success ? merged.data : alertSettings.parse({}), rules);
  } catch (err) {
    if (!(err instanceof z.ZodError)) throw err;
    const message = err.issues.map((i) => i.message).join('; ');
    throw new BacktestInputError(`rules conflict with the settings of ${wearerName}: ${message}`);
  }
}

/**
 * Replays the organisation's stored readings of [from, to) through the pure engine under the
 * proposed rules, wearer by wearer, and compares what would have fired with the alerts stored.
 * Read-only: no alert, state or notification is written.
 */
export async function runBacktest(db: Queryable, req: BacktestRequest): Promise<BacktestReport> {
  checkPeriod(req.from, req.to);
  if (!(await organizationExists(db, req.organizationId))) {
    throw new BacktestInputError(`--organization ${req.organizationId} does not exist`);
  }
  const warmupFrom = new Date(req.from.getTime() - BACKTEST_WARMUP_MS);
  const wearers = await listBacktestWearers(db, req.organizationId, req.from);
  const fired: FiredAlert[] = [];
  let readings = 0;
  for (const w of wearers) {
    const profile = { ...w, settings: proposedSettings(w.name, w.settings, req.rules) };
    const inputs = await loadWearerInputs(db, w.wearerId, warmupFrom, req.to);
    readings += inputs.filter((i) => i.kind === 'reading' && i.at >= req.from).length;
    fired.push(...replayWearer(profile, inputs, { warmupFrom, from: req.from, to: req.to }));
  }
  const stored = await storedAlertTallies(db, req.organizationId, req.from, req.to);
  const rows = compareAlerts(fired, stored, new Map(wearers.map((w) => [w.wearerId, w.name])));
  return {
    organizationId: req.organizationId,
    from: req.from.toISOString(),
    to: req.to.toISOString(),
    warmupMinutes: BACKTEST_WARMUP_MS / 60_000,
    wearers: wearers.length,
    readings,
    rows,
    totals: totalsByType(rows),
  };
}

function totalsByType(rows: BacktestRow[]): BacktestReport['totals'] {
  const sum = (type: AlertType, pick: (r: BacktestRow) => AlertTally) =>
    rows.filter((r) => r.type === type).reduce((n, r) => n + pick(r).count, 0);
  return ALERT_TYPES.map((type) => ({
    type,
    proposed: sum(type, (r) => r.proposed),
    stored: sum(type, (r) => r.stored),
  })).filter((t) => t.proposed > 0 || t.stored > 0);
}
