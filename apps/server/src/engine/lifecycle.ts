import {
  ALERT_LEVEL_OF,
  isWithinSchedule,
  PHYSIOLOGICAL_ALERT_TYPES,
  type AlertType,
} from '@wearable/domain';
import { MINUTE_MS, type RuleContext, type Verdict } from './rules/rule.js';
import type { EngineEffect } from './types.js';

/**
 * Which alerts are open (opened at, ms), which of those are recovering (their condition clear
 * since, ms) and when each type last closed (for the cooldown).
 */
export interface AlertBook {
  open: Partial<Record<AlertType, number>>;
  closed: Partial<Record<AlertType, number>>;
  /** Absent in states stored before recovery windows (normalizeState fills it). */
  recovering: Partial<Record<AlertType, number>>;
}

/**
 * How an open alert of a type closes (besides confirmation, which closes any type):
 * - `confirmation`: only staff close it; each event after a confirmation is a new incident.
 * - `recovery-window`: the rule said "clear" on every piece of evidence for the organisation's
 *   recovery window (`recoveryMinutes`); a fire or hold in between starts it over.
 * - `next-evidence`: the first evidence that the condition cleared closes it at once.
 */
export type ClosePolicy = 'confirmation' | 'recovery-window' | 'next-evidence';

/** One row per type; docs/alert-engine.md explains each choice. */
export const CLOSE_POLICY: Record<AlertType, ClosePolicy> = {
  SOS_CALL: 'confirmation',
  DETECT_FALL_DOWN: 'confirmation',
  HEART_RATE: 'recovery-window',
  HEART_RATE_ANOMALY_SUSTAINED: 'recovery-window',
  HEATSTROKE: 'recovery-window',
  ADVANCED_HEATSTROKE_RISK: 'recovery-window',
  ADVANCED_HEATSTROKE: 'recovery-window',
  AWAKENING_ALERT: 'recovery-window',
  NON_WEARING: 'recovery-window',
  // A reading is the proof that the link is back; the silence limit (10 minutes at least)
  // before it opens and the cooldown already keep a flaky link from flapping.
  DISCONNECTION: 'next-evidence',
};

const isPhysiological = (type: AlertType) => PHYSIOLOGICAL_ALERT_TYPES.includes(type);

function mayOpen(book: AlertBook, type: AlertType, ctx: RuleContext): boolean {
  if (!ctx.settings.enabled[type]) return false;
  if (isPhysiological(type) && !ctx.worn) return false;
  if (book.open[type] !== undefined) return false;
  if (CLOSE_POLICY[type] === 'confirmation') return true;
  const closedAt = book.closed[type];
  return closedAt === undefined || ctx.at - closedAt >= ctx.settings.cooldownMinutes * MINUTE_MS;
}

/** The condition is present again: a pending recovery starts over (not for a reading older than it). */
function holds(book: AlertBook, type: AlertType, at: number): void {
  const since = book.recovering[type];
  if (since !== undefined && at >= since) delete book.recovering[type];
}

function close(book: AlertBook, type: AlertType, at: number, reason: 'recovered' | 'confirmed') {
  // Evidence older than the alert (a backlog reading that ends a DISCONNECTION opened while the
  // gateway was away) closes it, but not before it opened.
  const closedAt = Math.max(at, book.open[type] ?? at);
  delete book.open[type];
  delete book.recovering[type];
  book.closed[type] = closedAt;
  return { kind: 'close', alertType: type, at: new Date(closedAt), reason } satisfies EngineEffect;
}

/**
 * A "clear" verdict on an open alert. Only evidence counts: a reading or an event on which the
 * rule itself said clear. A tick never starts nor completes a recovery: a silent bracelet has
 * not recovered.
 */
function clears(
  book: AlertBook,
  verdict: Extract<Verdict, { kind: 'clear' }>,
  ctx: RuleContext,
): EngineEffect | null {
  const type = verdict.alertType;
  if (book.open[type] === undefined || ctx.input.kind === 'tick' || ctx.stale) return null;
  const policy = CLOSE_POLICY[type];
  switch (policy) {
    case 'confirmation':
      return null;
    case 'recovery-window': {
      if (verdict.ended) break;
      const since = book.recovering[type] ?? ctx.at;
      book.recovering[type] = since;
      if (ctx.at - since < ctx.recoveryMinutes * MINUTE_MS) return null;
      break;
    }
    case 'next-evidence':
      break;
    default: {
      const unknown: never = policy;
      throw new Error(`unknown close policy ${String(unknown)}`);
    }
  }
  return close(book, type, ctx.at, 'recovered');
}

/** Turns the rules' verdicts into open/close effects, updating the book in place. */
export function applyVerdicts(
  book: AlertBook,
  verdicts: Verdict[],
  ctx: RuleContext,
): EngineEffect[] {
  const effects: EngineEffect[] = [];
  for (const verdict of verdicts) {
    const type = verdict.alertType;
    switch (verdict.kind) {
      case 'fire': {
        if (book.open[type] !== undefined) {
          holds(book, type, ctx.at);
          break;
        }
        if (!mayOpen(book, type, ctx)) break;
        const level = ALERT_LEVEL_OF[type];
        book.open[type] = ctx.at;
        effects.push({
          kind: 'open',
          alertType: type,
          level,
          at: new Date(ctx.at),
          cause: verdict.cause,
          notify:
            level === 'EMERGENCY' ||
            isWithinSchedule(ctx.settings.schedule, new Date(ctx.at), ctx.timeZone),
        });
        break;
      }
      case 'hold':
        holds(book, type, ctx.at);
        break;
      case 'clear': {
        const effect = clears(book, verdict, ctx);
        if (effect) effects.push(effect);
        break;
      }
    }
  }
  return effects;
}

/** Staff confirmed the open alert of a type: it closes; the cooldown starts now. */
export function confirmAlert(book: AlertBook, type: AlertType, at: number): EngineEffect[] {
  if (book.open[type] === undefined) return [];
  return [close(book, type, at, 'confirmed')];
}
