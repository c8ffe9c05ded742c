import {
  ALERT_LEVELS,
  type AlertLevel,
  type AlertPlace,
  type AlertType,
  formatTime,
  placeText,
} from '@wearable/domain';
import { ALERT_LEVEL_LABELS, ALERT_TYPE_LABELS, type Lang } from '../alerts/alerts.service.js';

export interface AlertMessageInput {
  type: AlertType;
  level: AlertLevel;
  wearerName: string;
  groupName: string | null;
  openedAt: Date;
  timeZone: string;
  /** Escalation step; above 1 the text says nobody has confirmed yet. */
  step: number;
  /** A reminder after the repeat interval: the text says nobody has confirmed yet. */
  reminder?: boolean;
  /** A heat alert of a site with a written heat procedure: its nearest hospital (Japan's 2025 heat rule). */
  hospital?: { name: string; phone: string } | null;
  /** Where the wearer was at the opening (EMERGENCY and CRITICAL alerts); null: not recorded, not said. */
  place?: AlertPlace | null;
  /** The alert in the console (SMS only; a call does not read out an address). */
  link?: string | null;
  /** Why it fired, as stored (`alerts.cause`): man-down is named ("no movement for 5 min"). */
  cause?: { rule?: unknown; values?: Record<string, unknown> } | null;
}

const MAN_DOWN: Record<Lang, (minutes: number) => string> = {
  ja: (m) => ` (動きなし ${m} 分)`,
  en: (m) => ` (no movement for ${m} min)`,
};

/**
 * The cause worth saying in a text message: a FALL sent for man-down says how long the worker was
 * still (an impact fall needs no more words than its type). Anything else, or a malformed cause: ''.
 */
export function causeNote(cause: AlertMessageInput['cause'], lang: Lang): string {
  if (!cause || cause.rule !== 'man-down') return '';
  const minutes = cause.values?.stillMinutes;
  return typeof minutes === 'number' && Number.isInteger(minutes) && minutes > 0
    ? MAN_DOWN[lang](minutes)
    : '';
}

const HEAT_PROCEDURE: Record<Lang, (h: { name: string; phone: string }) => string> = {
  ja: (h) => ` 作業中止・身体冷却。手順は現場の掲示を確認。病院: ${h.name} ${h.phone}`,
  en: (h) => ` Stop work, cool the body; see the site's procedure. Hospital: ${h.name} ${h.phone}`,
};

const REMINDER: Record<Lang, string> = { ja: '未確認', en: 'unconfirmed' };

/**
 * The SMS / call text, e.g. "【緊急】山田 太郎さん: SOS発信 (第一現場) 14:03 場所: 2階 食堂 https://…"
 * (the place for EMERGENCY and CRITICAL alerts, "場所不明" when nothing placed the wearer); a man-down
 * fall says so: "転倒検知 (動きなし 5 分)".
 */
export function alertMessage(m: AlertMessageInput, lang: Lang = 'ja'): string {
  const level = ALERT_LEVEL_LABELS[lang][m.level];
  const tag = m.step > 1 || m.reminder ? `${level}・${REMINDER[lang]}` : level;
  const time = formatTime(m.openedAt, m.timeZone);
  const where = m.groupName ? ` (${m.groupName})` : '';
  const type = ALERT_TYPE_LABELS[lang][m.type] + causeNote(m.cause, lang);
  const heat = m.hospital ? HEAT_PROCEDURE[lang](m.hospital) : '';
  const place = m.place ? ` ${placeText(m.place, lang, m.timeZone)}` : '';
  const link = m.link ? ` ${m.link}` : '';
  return lang === 'ja'
    ? `【${tag}】${m.wearerName}さん: ${type}${where} ${time}${place}${heat}${link}`
    : `[${tag}] ${m.wearerName}: ${type}${where} ${time}${place}${heat}${link}`;
}

/** The "send a test" text of a group's notice settings. */
export function noticeTestMessage(groupName: string, lang: Lang = 'ja'): string {
  return lang === 'ja'
    ? `【テスト】${groupName} のアラート通知のテストです。対応は不要です。`
    : `[Test] A test of the alert notices of ${groupName}. No action needed.`;
}

/** One alert named by a grouped notice. */
export interface GroupedAlert {
  type: AlertType;
  level: AlertLevel;
  wearerName: string;
  groupName: string | null;
}

const NAMES_SHOWN = 5;
const SEVERITY: readonly AlertLevel[] = ['EMERGENCY', 'CRITICAL', 'CAUTION', 'DEVICE_STATUS'];
const unique = <T>(xs: readonly T[]) => [...new Set(xs)];

/**
 * The one message at a group window's end, e.g. 「【重大】第一現場: 熱中症 3名 (佐藤, 鈴木, 高橋) 12:56-12:58」:
 * the highest level, the groups, the types, how many people and who (the first five), the window.
 */
export function groupedMessage(
  m: { alerts: readonly GroupedAlert[]; from: Date; to: Date; timeZone: string },
  lang: Lang = 'ja',
): string {
  const top = SEVERITY.find((l) => m.alerts.some((a) => a.level === l)) ?? ALERT_LEVELS[0];
  const level = ALERT_LEVEL_LABELS[lang][top];
  const groups = unique(m.alerts.map((a) => a.groupName).filter((g): g is string => g !== null));
  const types = unique(m.alerts.map((a) => ALERT_TYPE_LABELS[lang][a.type]));
  const people = unique(m.alerts.map((a) => a.wearerName));
  const more = people.length > NAMES_SHOWN ? (lang === 'ja' ? ' 他' : ', ...') : '';
  const names = people.slice(0, NAMES_SHOWN).join(', ') + more;
  const window = `${formatTime(m.from, m.timeZone)}-${formatTime(m.to, m.timeZone)}`;
  const sep = lang === 'ja' ? '・' : ', ';
  const where = groups.length ? `${groups.join(sep)}: ` : '';
  return lang === 'ja'
    ? `【${level}】${where}${types.join(sep)} ${people.length}名 (${names}) ${window}`
    : `[${level}] ${where}${types.join(sep)}, ${people.length} ${people.length === 1 ? 'person' : 'people'} (${names}) ${window}`;
}

/** The one message past the hourly cap: how many alerts wait in the console, and where. */
export function capSummaryMessage(
  m: { waiting: number; cap: number; link: string },
  lang: Lang = 'ja',
): string {
  return lang === 'ja'
    ? `【通知上限】この1時間の通知が上限(${m.cap}件)に達しました。ほか${m.waiting}件のアラートはコンソールで確認してください: ${m.link}`
    : `[Notice limit] This hour's ${m.cap} notices are used; ${m.waiting} more ${m.waiting === 1 ? 'alert waits' : 'alerts wait'} in the console: ${m.link}`;
}
