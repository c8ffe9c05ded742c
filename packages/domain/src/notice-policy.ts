import type { AlertPolicy } from './alert-policy.js';
import type { AlertLevel, AlertType, NotificationChannel } from './alerts.js';
import type { SiteHeatLevel } from './site-heat-levels.js';

/**
 * The notification policy (issue 14 item 3 and 4): when an alert notice to one recipient on one
 * channel goes at once, waits for its group window, is capped or inhibited. A pure table over a
 * bucket's state, read by the server's notifier, its tests and the noise benchmark; the model is
 * Alertmanager's group_wait = 0 / group_interval / repeat_interval, plus an hourly cap.
 *
 * - EMERGENCY goes at once, one message per alert, never grouped, capped or inhibited.
 * - Otherwise the first alert of a quiet bucket goes at once and opens a group window; alerts
 *   arriving within it are held and go as ONE message at its end (which opens the next window).
 * - At most `smsPerHour` / `callsPerHour` messages per hour (the hour starts at its first message),
 *   the summary included: alert messages take all but the hour's last slot, which is kept for ONE
 *   summary saying how many alerts wait in the console; then nothing that hour.
 * - A still-open, unconfirmed alert is offered again every `repeatIntervalMinutes` (a reminder,
 *   grouped and capped like any other notice).
 * - While the wearer's site is at DANGER, ADVANCED_HEATSTROKE_RISK (CAUTION) is inhibited: the
 *   site's own notice already told the contacts.
 * - While the gateway a wearer was last heard through is silent (its gateway alert is open, or its
 *   silence is past the expected interval: gateway-silence.ts), DISCONNECTION is inhibited: the
 *   gateway's one message names how many wearers it served, and covers their alerts.
 */

/** Why a notice was sent, held or not sent: the notification log's `reason`. */
export const NOTICE_REASONS = [
  /** EMERGENCY: at once, never grouped or capped. */
  'emergency',
  /** The first notice of a quiet bucket: at once. */
  'first',
  /** A reminder of a still-open, unconfirmed alert after the repeat interval, at once. */
  'repeat',
  /** Held: goes with the group window's message at its end (not sent by itself). */
  'held',
  /** The one message at a group window's end covering the held alerts. */
  'grouped',
  /** Past the hourly cap: not sent; the alert waits in the console. */
  'capped',
  /** The one message past the cap: how many alerts wait in the console. */
  'capSummary',
  /** The site notice (site at DANGER) or the gateway's silence alert covers this alert. */
  'inhibited',
] as const;
export type NoticeReason = (typeof NOTICE_REASONS)[number];

/** Reasons whose log entry is a message that left (or tried to); the others record a message not sent. */
export const SENT_NOTICE_REASONS: readonly NoticeReason[] = [
  'emergency',
  'first',
  'repeat',
  'grouped',
  'capSummary',
];

/** Alert types a site at DANGER inhibits (personal CAUTION alerts whose cause is heat). */
export const INHIBITED_AT_SITE_DANGER: readonly AlertType[] = ['ADVANCED_HEATSTROKE_RISK'];
/** Alert types a silent gateway inhibits for the wearers last heard through it. */
export const INHIBITED_WHILE_GATEWAY_SILENT: readonly AlertType[] = ['DISCONNECTION'];

/** Where the capped alerts wait: the console's alert history (the web app's paths.alertHistories). */
export const CONSOLE_ALERT_HISTORY_PATH = '/alert-histories';
/** One wearer's alerts in the console (apps/web paths.devices.alertHistories), linked from an alert's SMS. */
export const consoleAlertPath = (organizationId: string, wearerId: string): string =>
  `/devices/${encodeURIComponent(organizationId)}/${encodeURIComponent(wearerId)}/alert_histories`;

/** One recipient's state on one channel (one row of `notice_buckets`). */
export interface NoticeBucket {
  channel: NotificationChannel;
  /** The last message sent outside EMERGENCY: the group window runs from it. */
  lastSentAt: Date | null;
  /** When the held alerts (or the cap summary) go; null when nothing waits. */
  dueAt: Date | null;
  /** Alerts held for the window's end. */
  held: number;
  /** Start of the current hour of the cap (its first message); null before any. */
  hourStartedAt: Date | null;
  /** Messages sent in that hour outside EMERGENCY. */
  hourSent: number;
  /** Alerts capped in that hour and not yet named by a summary. */
  capped: number;
  /** The hour's summary has gone: nothing more that hour. */
  summarySent: boolean;
}

/** A bucket nobody has been notified through yet. */
export const emptyNoticeBucket = (channel: NotificationChannel): NoticeBucket => ({
  channel,
  lastSentAt: null,
  dueAt: null,
  held: 0,
  hourStartedAt: null,
  hourSent: 0,
  capped: 0,
  summarySent: false,
});

/** One alert offered to a bucket: when it opens, or again as a reminder. */
export interface NoticeItem {
  type: AlertType;
  level: AlertLevel;
  /** The heat level of the wearer's site (its bracelet's gateway), when known. */
  siteHeatLevel: SiteHeatLevel | null;
  /** The gateway the wearer was last heard through is silent (gateway-silence.ts). */
  gatewaySilent?: boolean;
  /** A reminder: when this alert was last offered to this bucket (sent, held or capped). */
  lastNoticeAt?: Date | null;
}

export type NoticeDecision =
  | { action: 'send'; reason: 'emergency' | 'first' | 'repeat'; bucket: NoticeBucket }
  | { action: 'hold'; reason: 'held'; dueAt: Date; bucket: NoticeBucket }
  | { action: 'withhold'; reason: 'capped' | 'inhibited'; bucket: NoticeBucket }
  /** A reminder offered before its repeat interval: nothing happens until `until`. */
  | { action: 'wait'; until: Date; bucket: NoticeBucket };

/** What a group window's end does (the leader's sweep, at `bucket.dueAt`). */
export type WindowEndDecision =
  | { action: 'send'; reason: 'grouped'; bucket: NoticeBucket }
  /** `waiting`: the alerts capped this hour (the held ones included), named by the summary. */
  | { action: 'send'; reason: 'capSummary'; waiting: number; bucket: NoticeBucket }
  | { action: 'withhold'; reason: 'capped'; bucket: NoticeBucket }
  | { action: 'none'; bucket: NoticeBucket };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const at = (from: Date, ms: number) => new Date(from.getTime() + ms);

/** Messages per hour a bucket's channel may carry outside EMERGENCY, the summary included. */
export const hourlyCap = (channel: NotificationChannel, policy: AlertPolicy): number => {
  switch (channel) {
    // A chat channel is capped as an SMS recipient is (decision 0022): no more messages an hour.
    case 'SMS':
    case 'SLACK':
    case 'TEAMS':
    case 'LINE_WORKS':
      return policy.smsPerHour;
    case 'PHONE_CALL':
      return policy.callsPerHour;
    // A push buzzes a locked phone as an SMS does: the same cap, though it costs nothing (issue 38: no
    // more messages per recipient-hour than SMS gets; docs/push.md).
    case 'PUSH':
      return policy.smsPerHour;
    // A family member's LINE message costs one of the plan's messages and buzzes as an SMS does.
    case 'LINE':
      return policy.smsPerHour;
  }
};

/**
 * Alert messages an hour may carry: the cap less the slot kept for the summary, so a recipient
 * never gets more than the cap in an hour (with a cap of 1 the one message is the alert's).
 */
export const alertSlots = (channel: NotificationChannel, policy: AlertPolicy): number => {
  const cap = hourlyCap(channel, policy);
  return cap >= 2 ? cap - 1 : cap;
};

/**
 * True when another notice covers this alert's (never CRITICAL or EMERGENCY): a site at DANGER
 * covers heat CAUTION, a silent gateway covers its wearers' DISCONNECTION.
 */
export const isInhibited = (item: NoticeItem): boolean =>
  (item.level === 'CAUTION' &&
    item.siteHeatLevel === 'DANGER' &&
    INHIBITED_AT_SITE_DANGER.includes(item.type)) ||
  (item.level === 'DEVICE_STATUS' &&
    item.gatewaySilent === true &&
    INHIBITED_WHILE_GATEWAY_SILENT.includes(item.type));

/** When a reminder of an alert last offered at `lastNoticeAt` is due. */
export const repeatDueAt = (lastNoticeAt: Date, policy: AlertPolicy): Date =>
  at(lastNoticeAt, policy.repeatIntervalMinutes * MINUTE);

/**
 * The bucket with its hour started afresh once the last one is over (held alerts stay held; an
 * hour whose summary is still owed lasts until the summary goes).
 */
function rollHour(b: NoticeBucket, now: Date): NoticeBucket {
  if (!b.hourStartedAt || now.getTime() < b.hourStartedAt.getTime() + HOUR) return b;
  if (b.capped > 0 && !b.summarySent) return b;
  return { ...b, hourStartedAt: null, hourSent: 0, capped: 0, summarySent: false };
}

const sent = (b: NoticeBucket, now: Date): NoticeBucket => ({
  ...b,
  lastSentAt: now,
  hourStartedAt: b.hourStartedAt ?? now,
  hourSent: b.hourSent + 1,
});

/** The decision for one alert offered to one recipient's bucket at `now`, and the bucket after it. */
export function decideNotice(
  bucket: NoticeBucket,
  item: NoticeItem,
  policy: AlertPolicy,
  now: Date,
): NoticeDecision {
  if (item.level === 'EMERGENCY') return { action: 'send', reason: 'emergency', bucket };
  if (item.lastNoticeAt) {
    const due = repeatDueAt(item.lastNoticeAt, policy);
    if (now < due) return { action: 'wait', until: due, bucket };
  }
  if (isInhibited(item)) return { action: 'withhold', reason: 'inhibited', bucket };
  const b = rollHour(bucket, now);
  const windowEnd = b.lastSentAt ? at(b.lastSentAt, policy.groupWindowMinutes * MINUTE) : null;
  // Something already waits for this window (or its sweep is late): join it, keep the order.
  if (b.held > 0 && b.dueAt) {
    return { action: 'hold', reason: 'held', dueAt: b.dueAt, bucket: { ...b, held: b.held + 1 } };
  }
  if (b.hourSent >= alertSlots(b.channel, policy)) {
    // The summary goes at the end of a window (the open one, or one from now), naming every alert
    // capped until then.
    const nextEnd =
      windowEnd && now < windowEnd ? windowEnd : at(now, policy.groupWindowMinutes * MINUTE);
    const dueAt = b.summarySent ? b.dueAt : (b.dueAt ?? nextEnd);
    return { action: 'withhold', reason: 'capped', bucket: { ...b, capped: b.capped + 1, dueAt } };
  }
  if (windowEnd && now < windowEnd) {
    return {
      action: 'hold',
      reason: 'held',
      dueAt: windowEnd,
      bucket: { ...b, held: 1, dueAt: windowEnd },
    };
  }
  return { action: 'send', reason: item.lastNoticeAt ? 'repeat' : 'first', bucket: sent(b, now) };
}

/** The decision at a bucket's `dueAt`: the held alerts as one message, the cap's summary, or nothing. */
export function decideWindowEnd(
  bucket: NoticeBucket,
  policy: AlertPolicy,
  now: Date,
): WindowEndDecision {
  const cleared = { dueAt: null, held: 0 };
  // A summary owed for the hour just ended still goes (before the hour rolls over).
  if (bucket.capped > 0 && !bucket.summarySent) {
    const waiting = bucket.capped + bucket.held;
    return {
      action: 'send',
      reason: 'capSummary',
      waiting,
      bucket: { ...bucket, ...cleared, capped: waiting, summarySent: true, lastSentAt: now },
    };
  }
  const b = rollHour(bucket, now);
  if (b.held === 0) return { action: 'none', bucket: { ...b, ...cleared } };
  if (b.hourSent < alertSlots(b.channel, policy)) {
    return { action: 'send', reason: 'grouped', bucket: { ...sent(b, now), ...cleared } };
  }
  if (!b.summarySent) {
    const waiting = b.capped + b.held;
    return {
      action: 'send',
      reason: 'capSummary',
      waiting,
      bucket: { ...b, ...cleared, capped: waiting, summarySent: true, lastSentAt: now },
    };
  }
  return {
    action: 'withhold',
    reason: 'capped',
    bucket: { ...b, ...cleared, capped: b.capped + b.held },
  };
}
