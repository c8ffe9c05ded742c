import {
  ALERT_LEVELS,
  type AlertLevel,
  type AlertPlace,
  type AlertType,
  fitsOneSms,
  formatDate,
  formatTime,
  placeText,
  TEST_ALERT_RULE,
  zoneName,
} from '@wearable/domain';
import {
  ALERT_LEVEL_LABELS,
  ALERT_TYPE_LABELS,
  type Lang,
  UNASSIGNED_DEVICE_LABELS,
} from '../alerts/alerts.service.js';

export interface AlertMessageInput {
  type: AlertType;
  level: AlertLevel;
  wearerName: string;
  /** An alert of a device no wearer holds (issue 34): its serial, said instead of a wearer's name. */
  deviceSerial?: string | null;
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
/** A test alert (the setup checklist's last step) says so first, and that nobody is in danger. */
const TEST_ALERT: Record<Lang, { tag: string; note: string }> = {
  ja: { tag: 'テスト', note: ' これはテストです。コンソールで確認してください。' },
  en: { tag: 'Test', note: ' This is a test; confirm it in the console.' },
};

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
  const who = m.deviceSerial
    ? UNASSIGNED_DEVICE_LABELS[lang](m.deviceSerial)
    : lang === 'ja'
      ? `${m.wearerName}さん`
      : m.wearerName;
  const test = m.cause?.rule === TEST_ALERT_RULE ? TEST_ALERT[lang] : null;
  const marked = test ? `${test.tag}・${tag}` : tag;
  const note = test ? test.note : '';
  return lang === 'ja'
    ? `【${marked}】${who}: ${type}${where} ${time}${place}${heat}${note}${link}`
    : `[${marked}] ${who}: ${type}${where} ${time}${place}${heat}${note}${link}`;
}

/**
 * A position's map link (issue 36 item 4): what a phone opens in its map app, instead of raw
 * coordinates. 5 decimals, about a metre, as the console shows them.
 */
export const mapLink = (p: { latitude: number; longitude: number }): string =>
  `https://maps.google.com/?q=${p.latitude.toFixed(5)},${p.longitude.toFixed(5)}`;

/** Shorter type words for an SMS that must fit one segment; the others keep their label. */
const SMS_TYPE_WORDS: Record<Lang, Partial<Record<AlertType, string>>> = {
  ja: { SOS_CALL: 'SOS', DETECT_FALL_DOWN: '転倒' },
  en: { SOS_CALL: 'SOS', DETECT_FALL_DOWN: 'Fall' },
};
const SMS_MAN_DOWN: Record<Lang, (minutes: number) => string> = {
  ja: (m) => `(静止${m}分)`,
  en: (m) => ` (still ${m} min)`,
};
/** What ends a shortened name or place: "…" in Japanese; "..." in English, which "…" would make UCS-2. */
const CUT: Record<Lang, string> = { ja: '…', en: '...' };
/** A shortened name or place keeps at least this many characters of its own. */
const CUT_KEEPS = 2;

/** Cuts `text` to `length` characters (ending with the cut mark, trailing spaces dropped), or leaves it. */
export function cutTo(text: string, length: number, lang: Lang): string {
  const chars = [...text];
  if (chars.length <= length) return text;
  const keep = Math.max(CUT_KEEPS, length - [...CUT[lang]].length);
  return (
    chars
      .slice(0, keep)
      .join('')
      .replace(/[\s·/,]+$/u, '') + CUT[lang]
  );
}

/**
 * The place of an SMS. Full: as the console says it ("場所: 本館 · 2階 食堂"). Compact: a map link for a
 * position, the gateway's name alone otherwise (the most precise word; the link shows the site).
 */
function smsPlace(
  place: NonNullable<AlertMessageInput['place']>,
  lang: Lang,
  timeZone: string,
  zoneLength: number | null,
  full: boolean,
): string {
  const ja = lang === 'ja';
  // "·" is outside GSM-7: an English SMS names a site's zone with "/".
  const zone = (p: Parameters<typeof zoneName>[0]) => {
    const name = full ? zoneName(p, ja ? ' · ' : ' / ') : (p.gatewayName ?? p.gatewayId);
    return zoneLength === null ? name : cutTo(name, zoneLength, lang);
  };
  switch (place.kind) {
    case 'position': {
      const m = Math.round(place.accuracy);
      if (full) return ja ? `地図(±${m}m) ${mapLink(place)}` : `Map (${m} m): ${mapLink(place)}`;
      return ja ? `地図 ${mapLink(place)}` : `Map ${mapLink(place)}`;
    }
    case 'gateway':
      return full ? (ja ? `場所: ${zone(place)}` : `Place: ${zone(place)}`) : zone(place);
    case 'last-heard': {
      const time = formatTime(place.at, timeZone);
      return ja ? `最終受信 ${zone(place)} ${time}` : `Last heard ${zone(place)} ${time}`;
    }
    case 'unknown':
      return placeText(place, lang);
  }
}

/** One way of writing an alert SMS: full, compact, or compact with the name and the place cut. */
interface SmsForm {
  full: boolean;
  nameLength: number | null;
  zoneLength: number | null;
}

function smsText(m: AlertMessageInput, lang: Lang, form: SmsForm): string {
  const ja = lang === 'ja';
  const level = ALERT_LEVEL_LABELS[lang][m.level];
  const tag = m.step > 1 || m.reminder ? `${level}・${REMINDER[lang]}` : level;
  const test = m.cause?.rule === TEST_ALERT_RULE ? TEST_ALERT[lang] : null;
  const marked = test ? `${test.tag}・${tag}` : tag;
  const time = formatTime(m.openedAt, m.timeZone);
  const name = form.nameLength === null ? m.wearerName : cutTo(m.wearerName, form.nameLength, lang);
  const who = m.deviceSerial
    ? UNASSIGNED_DEVICE_LABELS[lang](m.deviceSerial)
    : ja
      ? `${name}さん`
      : name;
  const minutes = causeNote(m.cause, lang) ? (m.cause?.values?.stillMinutes as number) : null;
  const type = form.full
    ? ALERT_TYPE_LABELS[lang][m.type] + causeNote(m.cause, lang)
    : (SMS_TYPE_WORDS[lang][m.type] ?? ALERT_TYPE_LABELS[lang][m.type]) +
      (minutes === null ? '' : SMS_MAN_DOWN[lang](minutes));
  const where = form.full && m.groupName ? ` (${m.groupName})` : '';
  const place = m.place
    ? ` ${smsPlace(m.place, lang, m.timeZone, form.zoneLength, form.full)}`
    : '';
  const heat = m.hospital ? HEAT_PROCEDURE[lang](m.hospital) : '';
  const note = test ? test.note : '';
  const link = m.link ? ` ${m.link}` : '';
  const head = ja ? `【${marked}】${who}${form.full ? ': ' : ' '}` : `[${marked}] ${who}: `;
  return `${head}${type}${where} ${time}${place}${heat}${note}${link}`;
}

/**
 * An alert's SMS (issue 36 item 4; docs/notifications.md): the full text when it fits one segment
 * (70 UCS-2 characters for any Japanese, 160 GSM-7 otherwise: `smsLength`), else the first that
 * fits of: the compact text (no group, no labels, "SOS" / "転倒"); that with the name cut to fit
 * (at least two characters and "…"); that with the place's name cut to fit too. When none fits
 * (a map link beside the console link, a heat alert's procedure, a long PUBLIC_URL) the full text
 * goes, in as many segments as it takes: shortening would lose words and save nothing.
 * `m.link` is the alert's short link; a position is a map link, never raw coordinates.
 */
export function alertSms(m: AlertMessageInput, lang: Lang = 'ja'): string {
  const full = smsText(m, lang, { full: true, nameLength: null, zoneLength: null });
  if (fitsOneSms(full)) return full;
  const compact = { full: false, nameLength: null, zoneLength: null };
  if (fitsOneSms(smsText(m, lang, compact))) return smsText(m, lang, compact);
  const longest = (text: string) => [...text].length;
  const zoneLong = m.place && m.place.kind !== 'position' && m.place.kind !== 'unknown';
  // The longest name (then place) that still fits, from the whole down to CUT_KEEPS characters.
  for (let n = longest(m.wearerName) - 1; n > CUT_KEEPS && !m.deviceSerial; n -= 1) {
    const text = smsText(m, lang, { ...compact, nameLength: n });
    if (fitsOneSms(text)) return text;
  }
  if (zoneLong) {
    const p = m.place as Parameters<typeof zoneName>[0];
    const zone = p.gatewayName ?? p.gatewayId;
    const nameLength = m.deviceSerial ? null : CUT_KEEPS + 1;
    for (let z = longest(zone) - 1; z > CUT_KEEPS; z -= 1) {
      const text = smsText(m, lang, { full: false, nameLength, zoneLength: z });
      if (fitsOneSms(text)) return text;
    }
  }
  return full;
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

/** One alert the handover summary names. */
export interface HandoverAlert {
  type: AlertType;
  wearerName: string;
}

/**
 * The handover summary to whoever comes on call, e.g.
 * 「【当番】2階 の当番は 09:00 から 2026/12/04 09:00 まであなたです。未確認のアラート 2件: 転倒 佐藤, SOS 鈴木 https://…」.
 */
export function handoverMessage(
  m: {
    groupName: string;
    from: Date;
    until: Date;
    timeZone: string;
    total: number;
    alerts: readonly HandoverAlert[];
    link: string;
  },
  lang: Lang = 'ja',
): string {
  const when = (d: Date) => formatTime(d, m.timeZone);
  const day = (d: Date) => formatDate(d, lang, m.timeZone);
  const until = day(m.from) === day(m.until) ? when(m.until) : `${day(m.until)} ${when(m.until)}`;
  const named = m.alerts
    .map((a) => `${ALERT_TYPE_LABELS[lang][a.type]} ${a.wearerName}`)
    .join(', ');
  const more = m.total > m.alerts.length ? (lang === 'ja' ? ' 他' : ', ...') : '';
  if (lang === 'ja') {
    const open = m.total
      ? `未確認のアラート ${m.total}件: ${named}${more}`
      : '未確認のアラートはありません。';
    return `【当番】${m.groupName} の当番は ${when(m.from)} から ${until} まであなたです。${open} ${m.link}`;
  }
  const open = m.total
    ? `${m.total} unconfirmed ${m.total === 1 ? 'alert' : 'alerts'}: ${named}${more}`
    : 'No unconfirmed alerts.';
  return `[On call] You are on call for ${m.groupName} from ${when(m.from)} until ${until}. ${open} ${m.link}`;
}
