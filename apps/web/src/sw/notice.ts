/**
 * What the console's service worker does with a push, as pure functions (tested in notice.test.ts). The
 * payload is the server's pushNoticePayload (packages/domain/src/contracts/push.ts); it is read here by
 * hand, so the worker carries no schema library.
 */
export interface Notice {
  alertId: string | null;
  title: string;
  body: string;
  url: string;
  emergency: boolean;
  confirmable: boolean;
}

/** What a notification keeps for its click: where 確認 and 詳細 go. */
export type NoticeClick = Pick<Notice, 'alertId' | 'url' | 'confirmable'>;

const str = (v: unknown): v is string => typeof v === 'string';
/** A path of this origin: never `//host` or `/\\host`, which a browser reads as another origin. */
const isOwnPath = (u: string) => /^\/(?![/\\])/.test(u);

/** The payload, or null when it is not one of ours. */
export function parseNotice(text: string): Notice | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (!str(o.title) || !str(o.body) || !str(o.url) || !isOwnPath(o.url)) return null;
  return {
    alertId: str(o.alertId) ? o.alertId : null,
    title: o.title,
    body: o.body,
    url: o.url,
    emergency: o.emergency === true,
    confirmable: o.confirmable === true && str(o.alertId),
  };
}

/** The console's confirm page of an alert (apps/web/src/config/paths.ts alertConfirm). */
export const confirmPath = (alertId: string) => `/alerts/${encodeURIComponent(alertId)}/confirm`;

/** The notification: one per alert (its tag), EMERGENCY staying until answered; 確認 only on one alert's notice. */
export function noticeOptions(
  n: Notice,
  labels: { confirm: string; details: string } | null,
): NotificationOptions & { actions?: { action: string; title: string }[] } {
  const actions = labels
    ? [
        ...(n.confirmable ? [{ action: 'confirm', title: labels.confirm }] : []),
        { action: 'details', title: labels.details },
      ]
    : [];
  return {
    body: n.body,
    tag: n.alertId ?? n.url,
    requireInteraction: n.emergency,
    icon: '/icons/icon-192.png',
    data: { alertId: n.alertId, url: n.url, confirmable: n.confirmable } satisfies NoticeClick,
    actions,
  };
}

/** Where a click goes: 確認 to the confirm page, 詳細 or the notification itself to the alert. */
export function targetOf(data: NoticeClick | undefined, action: string): string | null {
  if (!data || !isOwnPath(data.url)) return null;
  if (action === 'confirm' && data.confirmable && data.alertId) return confirmPath(data.alertId);
  return data.url;
}
