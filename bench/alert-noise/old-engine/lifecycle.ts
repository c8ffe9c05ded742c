import {
  ALERT_LEVEL_OF,
  isWithinSchedule,
  PHYSIOLOGICAL_ALERT_TYPES,
  type AlertType,
} from '@wearable/domain';
import { MINUTE_MS, type RuleContext, type Verdict } from './rules/rule.js';
import type { EngineEffect } from './types.js';

/** Which alerts are open (opened at, ms) and when each type last closed (for the cooldown). */
export interface AlertBook {
  open: Partial<Record<AlertType, number>>;
  closed: Partial<Record<AlertType, number>>;
}

/**
 * Event alerts (SOS, fall) close only when staff confirm them and have no cooldown: each new
 * event after a confirmation is a new incident. Condition alerts recover on their own.
 */
export function closesOnlyByConfirmation(type: AlertType): boolean {
  switch (type) {
    case 'SOS_CALL':
    case 'DETECT_FALL_DOWN':
      return true;
    case 'HEART_RATE':
    case 'HEART_RATE_ANOMALY_SUSTAINED':
    case 'HEATSTROKE':
    case 'ADVANCED_HEATSTROKE_RISK':
    case 'ADVANCED_HEATSTROKE':
    case 'AWAKENING_ALERT':
    case 'DISCONNECTION':
    case 'NON_WEARING':
      return false;
  }
}

const isPhysiological = (type: AlertType) => PHYSIOLOGICAL_ALERT_TYPES.includes(type);

function mayOpen(book: AlertBook, type: AlertType, ctx: RuleContext): boolean {
  if (!ctx.settings.enabled[type]) return false;
  if (isPhysiological(type) && !ctx.worn) return false;
  if (book.open[type] !== undefined) return false;
  if (closesOnlyByConfirmation(type)) return true;
  const closedAt = book.closed[type];
  return closedAt === undefined || ctx.at - closedAt >= ctx.settings.cooldownMinutes * MINUTE_MS;
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
    if (verdict.kind === 'fire') {
      if (!mayOpen(book, type, ctx)) continue;
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
    } else if (book.open[type] !== undefined && !closesOnlyByConfirmation(type)) {
      delete book.open[type];
      book.closed[type] = ctx.at;
      effects.push({ kind: 'close', alertType: type, at: new Date(ctx.at), reason: 'recovered' });
    }
  }
  return effects;
}

/** Staff confirmed the open alert of a type: it closes; the cooldown starts now. */
export function confirmAlert(book: AlertBook, type: AlertType, at: number): EngineEffect[] {
  if (book.open[type] === undefined) return [];
  delete book.open[type];
  book.closed[type] = at;
  return [{ kind: 'close', alertType: type, at: new Date(at), reason: 'confirmed' }];
}
