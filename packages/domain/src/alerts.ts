export const ALERT_TYPES = [
  'ADVANCED_HEATSTROKE',
  'ADVANCED_HEATSTROKE_RISK',
  'AWAKENING_ALERT',
  'DETECT_FALL_DOWN',
  'DISCONNECTION',
  'HEART_RATE',
  'HEART_RATE_ANOMALY_SUSTAINED',
  'HEATSTROKE',
  'NON_WEARING',
  'SOS_CALL',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const ALERT_LEVELS = ['CAUTION', 'CRITICAL', 'DEVICE_STATUS', 'EMERGENCY'] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];

/** Default level of each alert type (PRODUCT.md, alert engine table). */
export const ALERT_LEVEL_OF: Record<AlertType, AlertLevel> = {
  SOS_CALL: 'EMERGENCY',
  DETECT_FALL_DOWN: 'EMERGENCY',
  HEART_RATE: 'CAUTION',
  HEART_RATE_ANOMALY_SUSTAINED: 'CRITICAL',
  HEATSTROKE: 'CRITICAL',
  ADVANCED_HEATSTROKE_RISK: 'CAUTION',
  ADVANCED_HEATSTROKE: 'CRITICAL',
  AWAKENING_ALERT: 'CAUTION',
  DISCONNECTION: 'DEVICE_STATUS',
  NON_WEARING: 'DEVICE_STATUS',
};

/** Alert types that depend on the body and are suppressed while the bracelet is not worn. */
export const PHYSIOLOGICAL_ALERT_TYPES: readonly AlertType[] = [
  'HEART_RATE',
  'HEART_RATE_ANOMALY_SUSTAINED',
  'HEATSTROKE',
  'ADVANCED_HEATSTROKE_RISK',
  'ADVANCED_HEATSTROKE',
  'AWAKENING_ALERT',
];

/** Why staff confirmed an alert (optional on a confirmation). */
export const CONFIRM_REASONS = [
  'FALSE_ALARM',
  'CHECKED_ON_SITE',
  'TREATED',
  'TRANSFERRED_TO_HOSPITAL',
  'OTHER',
] as const;
export type ConfirmReason = (typeof CONFIRM_REASONS)[number];
/** Longest note a confirmation may carry (characters). */
export const CONFIRM_NOTE_MAX = 500;

/** Caution is amber; every other level is red (spec section 9). */
export const alertColour = (level: AlertLevel): 'amber' | 'red' =>
  level === 'CAUTION' ? 'amber' : 'red';

/**
 * PUSH: Web Push to a staff member's subscribed browsers (docs/push.md); no phone number, no cost. LINE: a
 * LINE Messaging API push to a family member's linked LINE user (decision 0024); family notices only, never
 * a group's recipient.
 */
export const NOTIFICATION_CHANNELS = [
  'PHONE_CALL',
  'SMS',
  'PUSH',
  'SLACK',
  'TEAMS',
  'LINE_WORKS',
  'LINE',
] as const;
/** The channels a group's notice settings may name (LINE reaches family members only). */
export const STAFF_NOTICE_CHANNELS = [
  'PHONE_CALL',
  'SMS',
  'PUSH',
  'SLACK',
  'TEAMS',
  'LINE_WORKS',
] as const satisfies readonly (typeof NOTIFICATION_CHANNELS)[number][];
export type StaffNoticeChannel = (typeof STAFF_NOTICE_CHANNELS)[number];
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
/**
 * Chat channels (issue 38 item 2, decision 0022): an organisation's integration on /settings. In a
 * group's notice settings one is a recipient with no person and no number; it is grouped and capped
 * by the notice policy like an SMS recipient.
 */
export const CHAT_CHANNELS = [
  'SLACK',
  'TEAMS',
  'LINE_WORKS',
] as const satisfies readonly NotificationChannel[];
export type ChatChannel = (typeof CHAT_CHANNELS)[number];
export const isChatChannel = (channel: string): channel is ChatChannel =>
  (CHAT_CHANNELS as readonly string[]).includes(channel);
/** The address a chat channel's notices are logged to (the notice log's recipient column). */
export const chatAddress = (channel: ChatChannel): string => `chat:${channel}`;
/** Channels of the notification log: alert notices, plus mail (sign-in links, invitations). */
export const LOGGED_CHANNELS = [...NOTIFICATION_CHANNELS, 'EMAIL'] as const;
export type LoggedChannel = (typeof LOGGED_CHANNELS)[number];

/** Console alert polling and notification constants (spec section 9). */
export const ALERT_POLL_INTERVAL_MS = 20_000;
export const ALERT_REPEAT_SUPPRESS_MS = 5 * 60_000;
export const SOUND_LOAD_TIMEOUT_MS = 5_000;

/** Levels staff may snooze for one wearer (PRODUCT.md: never EMERGENCY or CRITICAL). */
export const SNOOZABLE_LEVELS: readonly AlertLevel[] = ['CAUTION', 'DEVICE_STATUS'];
export const isSnoozable = (type: AlertType): boolean =>
  SNOOZABLE_LEVELS.includes(ALERT_LEVEL_OF[type]);
/** Longest snooze: 12 hours (720 minutes). */
export const SNOOZE_MAX_MINUTES = 720;
/** Longest reason for a snooze (characters). */
export const SNOOZE_REASON_MAX = 500;
