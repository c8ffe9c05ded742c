import {
  type AlertPlace,
  type AlertView,
  formatPosition,
  formatTime,
  zoneName,
} from '@wearable/domain';
import type { AlertCauseView } from '@wearable/domain';
import type { TFunction } from 'i18next';

/** The id of the wearer page's alerts section: the banner's 詳細 links to it (`#wearer-alerts`). */
export const WEARER_ALERTS_ID = 'wearer-alerts';

/** Rules the engine names (apps/server/src/engine/rules); each has a sentence in alerts.json `cause`. */
export const KNOWN_CAUSE_RULES = [
  'sos-button',
  'fall-detected',
  'man-down',
  'heart-rate-above-upper-bound',
  'heart-rate-below-lower-bound',
  'heart-rate-above-85pct-max-sustained',
  'wbgt-high',
  'wbgt-caution-with-heart-rate-sustained',
  'ectemp',
  'psi',
  'apsi',
  'awake-after-sleep-in-sleep-window',
  'no-reading',
  'not-worn',
  // A test alert from the setup checklist (issue 35): not an emergency, said so everywhere.
  'test-alert',
] as const;

const isKnownRule = (rule: string): boolean =>
  (KNOWN_CAUSE_RULES as readonly string[]).includes(rule);

/** Why an alert fired, in words: "心拍数 192 > 上限 180". A rule this console does not know shows its raw values. */
export function causeText(t: TFunction<'alerts'>, cause: AlertCauseView | null): string {
  if (cause === null) return t('cause.none');
  if (isKnownRule(cause.rule)) return t(`cause.${cause.rule}`, { ...cause.values });
  const values = Object.entries(cause.values)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(', ');
  return values === '' ? cause.rule : `${cause.rule}: ${values}`;
}

/**
 * Where the wearer was when the alert opened, in words: 「場所: 本館 · 2階 食堂」, "Last heard at Entrance,
 * 14:03", 「場所不明」. Null for an alert that does not record a place (below CRITICAL).
 */
export function placeLabel(
  t: (key: string, opts?: Record<string, unknown>) => string,
  place: AlertPlace | null,
): string | null {
  if (place === null) return null;
  switch (place.kind) {
    case 'position':
      return t('place.position', { position: formatPosition(place) });
    case 'gateway':
      return t('place.gateway', { name: zoneName(place) });
    case 'last-heard':
      return t('place.lastHeard', {
        name: zoneName(place),
        time: formatTime(place.at),
      });
    case 'unknown':
      return t('place.unknown');
  }
}

/** The alerts namespace's `t`, or a page's wrapper of it. */
type Translate = (key: string, opts?: Record<string, unknown>) => string;

/**
 * Who the alert is about, in words: the wearer's name, or for an SOS or fall from a device no wearer
 * holds (issue 34) 「未登録の端末 BR-0042」.
 */
export function alertSubject(t: Translate, alert: AlertView): string {
  if (alert.wearer) return alert.wearer.name;
  return t('unassigned.device', { serial: alert.device?.serial ?? '' });
}

/** The alert's type in words; from a device no wearer holds, 「未登録の端末からのSOS」. */
export function alertTypeLabel(t: Translate, alert: AlertView): string {
  if (alert.wearer === null && (alert.type === 'SOS_CALL' || alert.type === 'DETECT_FALL_DOWN'))
    return t(`unassigned.types.${alert.type}`);
  return t(`types.${alert.type}`);
}
