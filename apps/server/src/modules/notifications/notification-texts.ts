import type { AlertLevel, AlertType } from '@wearable/domain';
import { ALERT_LEVEL_LABELS, ALERT_TYPE_LABELS, type Lang, localDateTime } from '../alerts/alert-labels.js';

export interface AlertMessageInput {
  type: AlertType;
  level: AlertLevel;
  wearerName: string;
  groupName: string | null;
  openedAt: Date;
  timeZone: string;
  /** Escalation step; above 1 the text says nobody has confirmed yet. */
  step: number;
}

const REMINDER: Record<Lang, string> = { ja: '未確認', en: 'unconfirmed' };

/** The SMS / call text, e.g. "【緊急】山田 太郎さん: SOS 発信 (第一現場) 14:03". */
export function alertMessage(m: AlertMessageInput, lang: Lang = 'ja'): string {
  const level = ALERT_LEVEL_LABELS[lang][m.level];
  const tag = m.step > 1 ? `${level}・${REMINDER[lang]}` : level;
  const time = localDateTime(m.openedAt, m.timeZone, false).slice(11);
  const where = m.groupName ? ` (${m.groupName})` : '';
  const type = ALERT_TYPE_LABELS[lang][m.type];
  return lang === 'ja'
    ? `【${tag}】${m.wearerName}さん: ${type}${where} ${time}`
    : `[${tag}] ${m.wearerName}: ${type}${where} ${time}`;
}

/** The "send a test" text of a group's notice settings. */
export function noticeTestMessage(groupName: string, lang: Lang = 'ja'): string {
  return lang === 'ja'
    ? `【テスト】${groupName} のアラート通知のテストです。対応は不要です。`
    : `[Test] A test of the alert notices of ${groupName}. No action needed.`;
}
