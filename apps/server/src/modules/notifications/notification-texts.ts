import { type AlertLevel, type AlertType, formatTime } from '@wearable/domain';
import { ALERT_LEVEL_LABELS, ALERT_TYPE_LABELS, type Lang } from '../alerts/alert-labels.js';

export interface AlertMessageInput {
  type: AlertType;
  level: AlertLevel;
  wearerName: string;
  groupName: string | null;
  openedAt: Date;
  timeZone: string;
  /** Escalation step; above 1 the text says nobody has confirmed yet. */
  step: number;
  /** A heat alert of a site with a written heat procedure: its nearest hospital (Japan's 2025 heat rule). */
  hospital?: { name: string; phone: string } | null;
}

const HEAT_PROCEDURE: Record<Lang, (h: { name: string; phone: string }) => string> = {
  ja: (h) => ` 作業中止・身体冷却。手順は現場の掲示を確認。病院: ${h.name} ${h.phone}`,
  en: (h) => ` Stop work, cool the body; see the site's procedure. Hospital: ${h.name} ${h.phone}`,
};

const REMINDER: Record<Lang, string> = { ja: '未確認', en: 'unconfirmed' };

/** The SMS / call text, e.g. "【緊急】山田 太郎さん: SOS発信 (第一現場) 14:03". */
export function alertMessage(m: AlertMessageInput, lang: Lang = 'ja'): string {
  const level = ALERT_LEVEL_LABELS[lang][m.level];
  const tag = m.step > 1 ? `${level}・${REMINDER[lang]}` : level;
  const time = formatTime(m.openedAt, m.timeZone);
  const where = m.groupName ? ` (${m.groupName})` : '';
  const type = ALERT_TYPE_LABELS[lang][m.type];
  const heat = m.hospital ? HEAT_PROCEDURE[lang](m.hospital) : '';
  return lang === 'ja'
    ? `【${tag}】${m.wearerName}さん: ${type}${where} ${time}${heat}`
    : `[${tag}] ${m.wearerName}: ${type}${where} ${time}${heat}`;
}

/** The "send a test" text of a group's notice settings. */
export function noticeTestMessage(groupName: string, lang: Lang = 'ja'): string {
  return lang === 'ja'
    ? `【テスト】${groupName} のアラート通知のテストです。対応は不要です。`
    : `[Test] A test of the alert notices of ${groupName}. No action needed.`;
}
