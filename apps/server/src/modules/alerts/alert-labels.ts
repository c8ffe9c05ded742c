import type { AlertLevel, AlertType, ConfirmReason, SiteHeatLevel } from '@wearable/domain';

/**
 * Server-side words for CSV headers and SMS/call texts; Japanese first, English second. Alert types, levels
 * and confirm reasons are the console's own words (the web app's `alerts.json` locale files; a test keeps them equal).
 */
export type Lang = 'ja' | 'en';

export const ALERT_TYPE_LABELS: Record<Lang, Record<AlertType, string>> = {
  ja: {
    ADVANCED_HEATSTROKE: '熱中症（深部体温）',
    ADVANCED_HEATSTROKE_RISK: '熱中症リスク（深部体温）',
    AWAKENING_ALERT: '睡眠中の覚醒',
    DETECT_FALL_DOWN: '転倒検知',
    DISCONNECTION: '通信途絶',
    HEART_RATE: '心拍数異常',
    HEART_RATE_ANOMALY_SUSTAINED: '高心拍の継続',
    HEATSTROKE: '熱中症',
    NON_WEARING: '未装着',
    SOS_CALL: 'SOS発信',
  },
  en: {
    ADVANCED_HEATSTROKE: 'Heatstroke (core temperature)',
    ADVANCED_HEATSTROKE_RISK: 'Heatstroke risk (core temperature)',
    AWAKENING_ALERT: 'Awake during sleep',
    DETECT_FALL_DOWN: 'Fall detected',
    DISCONNECTION: 'Disconnected',
    HEART_RATE: 'Heart rate out of range',
    HEART_RATE_ANOMALY_SUSTAINED: 'Sustained high heart rate',
    HEATSTROKE: 'Heatstroke',
    NON_WEARING: 'Not worn',
    SOS_CALL: 'SOS call',
  },
};

/**
 * How an alert of a device no wearer holds (issue 34) names what a wearer's name says elsewhere: the
 * device and its serial (the console's `alerts.json` `unassigned.device`).
 */
export const UNASSIGNED_DEVICE_LABELS: Record<Lang, (serial: string) => string> = {
  ja: (serial) => `未登録の端末 ${serial}`,
  en: (serial) => `Unassigned device ${serial}`,
};

export const ALERT_LEVEL_LABELS: Record<Lang, Record<AlertLevel, string>> = {
  ja: { EMERGENCY: '緊急', CRITICAL: '重大', CAUTION: '注意', DEVICE_STATUS: '端末状態' },
  en: {
    EMERGENCY: 'Emergency',
    CRITICAL: 'Critical',
    CAUTION: 'Caution',
    DEVICE_STATUS: 'Device status',
  },
};

export const STATUS_LABELS: Record<Lang, Record<'OPEN' | 'CLOSED', string>> = {
  ja: { OPEN: '発生中', CLOSED: '終了' },
  en: { OPEN: 'Open', CLOSED: 'Closed' },
};

export const CLOSE_REASON_LABELS: Record<Lang, Record<string, string>> = {
  ja: { recovered: '回復', confirmed: '確認済み' },
  en: { recovered: 'Recovered', confirmed: 'Confirmed' },
};

export const CONFIRM_REASON_LABELS: Record<Lang, Record<ConfirmReason, string>> = {
  ja: {
    FALSE_ALARM: '誤報',
    CHECKED_ON_SITE: '現場で確認',
    TREATED: '処置済み',
    TRANSFERRED_TO_HOSPITAL: '病院へ搬送',
    OTHER: 'その他',
  },
  en: {
    FALSE_ALARM: 'False alarm',
    CHECKED_ON_SITE: 'Checked on site',
    TREATED: 'Treated',
    TRANSFERRED_TO_HOSPITAL: 'Transferred to hospital',
    OTHER: 'Other',
  },
};

export const CSV_HEADERS: Record<Lang, string[]> = {
  ja: [
    'アラートID',
    '発生日時',
    '種別',
    'レベル',
    '状態',
    '終了日時',
    '終了理由',
    '確認日時',
    '確認者',
    '確認理由',
    '確認メモ',
    '装着者ID',
    '装着者',
    'グループ',
    '組織ID',
    '通知',
    '判定ルール',
    '判定値',
    '発生時の場所',
  ],
  en: [
    'Alert ID',
    'Opened at',
    'Type',
    'Level',
    'Status',
    'Closed at',
    'Close reason',
    'Confirmed at',
    'Confirmed by',
    'Confirm reason',
    'Confirm note',
    'Wearer ID',
    'Wearer',
    'Group',
    'Organisation ID',
    'Notified',
    'Rule',
    'Values',
    'Place at opening',
  ],
};

/** A site's heat level in the console's words (apps/web locales siteHeat.levels.*). */
export const SITE_HEAT_LEVEL_LABELS: Record<Lang, Record<SiteHeatLevel, string>> = {
  ja: { NORMAL: '通常', CAUTION: '注意', SEVERE: '厳重警戒', DANGER: '危険' },
  en: { NORMAL: 'Normal', CAUTION: 'Caution', SEVERE: 'Severe', DANGER: 'Danger' },
};
