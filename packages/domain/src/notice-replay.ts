import type { AlertPolicy } from './alert-policy.js';
import type { NotificationChannel } from './alerts.js';
import {
  decideNotice,
  decideWindowEnd,
  emptyNoticeBucket,
  type NoticeBucket,
  type NoticeItem,
  type NoticeReason,
  SENT_NOTICE_REASONS,
} from './notice-policy.js';

/** One alert reaching one recipient's bucket at `at` (a reminder carries `lastNoticeAt`). */
export interface OfferedNotice {
  at: Date;
  item: NoticeItem;
}

/** One entry of the notification log a replay writes: `covers` are indexes into the offered list. */
export interface ReplayedNotice {
  at: Date;
  reason: NoticeReason;
  /** A message left (EMERGENCY, first, repeat, grouped, capSummary); otherwise it was recorded only. */
  sent: boolean;
  covers: number[];
  /** capSummary: how many alerts wait in the console. */
  waiting?: number;
}

/**
 * The notification log of one recipient on one channel for alerts offered in time order, with every
 * group window ending exactly on time: what the server's notifier and sweep write, without a
 * database. For tests and the noise benchmark (messages per recipient-hour = entries with `sent`).
 */
export function replayNotices(
  offered: readonly OfferedNotice[],
  policy: AlertPolicy,
  channel: NotificationChannel,
): ReplayedNotice[] {
  const log: ReplayedNotice[] = [];
  let bucket: NoticeBucket = emptyNoticeBucket(channel);
  let held: number[] = [];
  let capped: number[] = [];
  const push = (at: Date, reason: NoticeReason, covers: number[], waiting?: number) =>
    log.push({
      at,
      reason,
      sent: SENT_NOTICE_REASONS.includes(reason),
      covers,
      ...(waiting === undefined ? {} : { waiting }),
    });

  const endWindowsUntil = (t: Date | null) => {
    while (bucket.dueAt && (t === null || bucket.dueAt <= t)) {
      const now = bucket.dueAt;
      const d = decideWindowEnd(bucket, policy, now);
      if (d.action === 'send' && d.reason === 'grouped') push(now, 'grouped', held);
      else if (d.action === 'send') push(now, 'capSummary', [...capped, ...held], d.waiting);
      else if (d.action === 'withhold') push(now, 'capped', held);
      if (d.action === 'send' && d.reason === 'capSummary') capped = [];
      held = [];
      bucket = d.bucket;
    }
  };

  offered.forEach(({ at, item }, index) => {
    endWindowsUntil(at);
    const d = decideNotice(bucket, item, policy, at);
    bucket = d.bucket;
    if (d.action === 'wait') return;
    push(at, d.reason, [index]);
    if (d.reason === 'held') held.push(index);
    if (d.reason === 'capped' && !bucket.summarySent) capped.push(index);
  });
  endWindowsUntil(null);
  return log;
}
