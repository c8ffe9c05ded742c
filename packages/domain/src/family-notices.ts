import type { AlertLevel } from './alerts.js';

/**
 * How a family member may choose to be told of a watched wearer's alerts (issue 34): their own phone or
 * mail, or (issue 38) a push to the browsers they subscribed on /user/info, at no cost per message, or a
 * LINE message from the organisation's LINE official account to the LINE user they linked (decision 0024).
 */
export const FAMILY_NOTICE_CHANNELS = ['SMS', 'EMAIL', 'PUSH', 'LINE'] as const;
export type FamilyNoticeChannel = (typeof FAMILY_NOTICE_CHANNELS)[number];

/**
 * The levels a family member is told of, by banner on their pages and by their chosen channel:
 * someone needs help now (SOS, fall) or is heading for harm (heat strain). Cautions and device
 * states stay on the staff side.
 */
export const FAMILY_ALERT_LEVELS = [
  'EMERGENCY',
  'CRITICAL',
] as const satisfies readonly AlertLevel[];

/** Whether an alert of this level is told to the family. */
export const isFamilyAlertLevel = (level: AlertLevel): boolean =>
  (FAMILY_ALERT_LEVELS as readonly AlertLevel[]).includes(level);
