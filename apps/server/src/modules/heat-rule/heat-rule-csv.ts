import {
  formatDateTime,
  HEAT_PROCEDURE_STEPS,
  type HeatProcedureStep,
  type HeatRuleReport,
} from '@wearable/domain';
import { csvCell } from '../alerts/alerts.service.js';
import {
  ALERT_TYPE_LABELS,
  CONFIRM_REASON_LABELS,
  type Lang,
  SITE_HEAT_LEVEL_LABELS,
} from '../alerts/alerts.service.js';

const BOM = '\uFEFF';

/** The procedure steps in the screen's words (apps/web locales heatRule.steps.*). */
export const HEAT_STEP_LABELS: Record<Lang, Record<HeatProcedureStep, string>> = {
  ja: {
    STOP_WORK: '作業の中止',
    COOL_BODY: '身体の冷却',
    MEDICAL_CARE: '医療機関の受診',
    EMERGENCY_CONTACT: '緊急連絡',
  },
  en: {
    STOP_WORK: 'Stop work',
    COOL_BODY: 'Cool the body',
    MEDICAL_CARE: 'Get medical care',
    EMERGENCY_CONTACT: 'Emergency contacts',
  },
};

const WORDS: Record<Lang, Record<string, string>> = {
  ja: {
    title: '暑熱作業報告',
    group: 'グループ',
    month: '対象月',
    hours: '該当作業時間(時間)',
    days: '該当日数',
    alerts: '熱中症アラート',
    confirmed: '確認済み',
    median: '確認までの時間 中央値(秒)',
    p90: '確認までの時間 90パーセンタイル(秒)',
    date: '日付',
    applicableHours: '該当時間帯',
    hotMinutes: '高温の分数',
    stretch: '最長連続(分)',
    maxWbgt: '最高WBGT',
    maxTemp: '最高気温',
    dayAlerts: 'アラート数',
    openedAt: '発生日時',
    type: '種別',
    wearer: '装着者',
    toNotice: '通知までの秒数',
    toConfirm: '確認までの秒数',
    confirmedBy: '確認者',
    reason: '確認理由',
    steps: '実施した手順',
    changeAt: '暑さレベル変化日時',
    gateway: 'ゲートウェイ',
    fromLevel: '変化前',
    toLevel: '変化後',
    wbgt: 'WBGT',
    ruleApplies: '暑熱作業該当日',
    yes: 'はい',
    no: 'いいえ',
  },
  en: {
    title: 'Heat-rule report',
    group: 'Group',
    month: 'Month',
    hours: 'Applicable work (hours)',
    days: 'Applicable days',
    alerts: 'Heat alerts',
    confirmed: 'Confirmed',
    median: 'Time to confirm, median (s)',
    p90: 'Time to confirm, 90th percentile (s)',
    date: 'Date',
    applicableHours: 'Applicable hours',
    hotMinutes: 'Hot minutes',
    stretch: 'Longest stretch (min)',
    maxWbgt: 'Max WBGT',
    maxTemp: 'Max air temperature',
    dayAlerts: 'Alerts',
    openedAt: 'Opened at',
    type: 'Type',
    wearer: 'Wearer',
    toNotice: 'Seconds to notice',
    toConfirm: 'Seconds to confirm',
    confirmedBy: 'Confirmed by',
    reason: 'Confirm reason',
    steps: 'Steps taken',
    changeAt: 'Site heat level changed at',
    gateway: 'Gateway',
    fromLevel: 'From',
    toLevel: 'To',
    wbgt: 'WBGT',
    ruleApplies: 'Heat rule applies that day',
    yes: 'yes',
    no: 'no',
  },
};

const line = (cells: (string | number | null)[]) => cells.map(csvCell).join(',');
/** Hours as "10:00-11:00" ranges, consecutive hours joined. */
export function hourRanges(hours: readonly number[]): string {
  const out: string[] = [];
  let start: number | null = null;
  hours.forEach((h, i) => {
    if (start === null) start = h;
    if (hours[i + 1] !== h + 1) {
      out.push(`${String(start).padStart(2, '0')}:00-${String(h + 1).padStart(2, '0')}:00`);
      start = null;
    }
  });
  return out.join(' ');
}

/** The monthly heat-rule report as UTF-8 CSV with BOM: a summary, the days, the heat alerts, the site heat changes. */
export function heatRuleCsv(r: HeatRuleReport, lang: Lang): string {
  const w = WORDS[lang];
  const lines = [
    line([w.title!]),
    line([w.group!, r.groupName]),
    line([w.month!, r.month]),
    line([w.hours!, r.applicableHours]),
    line([w.days!, r.applicableDays]),
    line([w.alerts!, r.summary.heatAlerts]),
    line([w.confirmed!, r.summary.confirmed]),
    line([
      w.median!,
      r.summary.medianSecondsToConfirm === null
        ? null
        : Math.round(r.summary.medianSecondsToConfirm),
    ]),
    line([
      w.p90!,
      r.summary.p90SecondsToConfirm === null ? null : Math.round(r.summary.p90SecondsToConfirm),
    ]),
    ...HEAT_PROCEDURE_STEPS.map((s) => line([HEAT_STEP_LABELS[lang][s], r.summary.steps[s]])),
    '',
    line([
      w.date!,
      w.applicableHours!,
      w.hotMinutes!,
      w.stretch!,
      w.maxWbgt!,
      w.maxTemp!,
      w.dayAlerts!,
    ]),
    ...r.days.map((d) =>
      line([
        d.date,
        hourRanges(d.applicableHours),
        d.hotMinutes,
        d.longestStretchMinutes,
        d.maxWbgt,
        d.maxTemperature,
        d.heatAlerts,
      ]),
    ),
    '',
    line([
      w.openedAt!,
      w.type!,
      w.wearer!,
      w.toNotice!,
      w.toConfirm!,
      w.confirmedBy!,
      w.reason!,
      w.steps!,
    ]),
    ...r.alerts.map((a) =>
      line([
        formatDateTime(a.openedAt, lang, r.timeZone),
        ALERT_TYPE_LABELS[lang][a.type],
        a.wearerName,
        a.secondsToNotice,
        a.secondsToConfirm,
        a.confirmedBy,
        a.confirmReason ? CONFIRM_REASON_LABELS[lang][a.confirmReason] : null,
        a.procedureSteps.map((s) => HEAT_STEP_LABELS[lang][s]).join(' / '),
      ]),
    ),
    '',
    line([w.changeAt!, w.gateway!, w.fromLevel!, w.toLevel!, w.wbgt!, w.ruleApplies!]),
    ...r.siteHeatChanges.map((c) =>
      line([
        formatDateTime(c.at, lang, r.timeZone),
        c.gatewayName,
        SITE_HEAT_LEVEL_LABELS[lang][c.from],
        SITE_HEAT_LEVEL_LABELS[lang][c.to],
        c.wbgt === null ? null : Math.round(c.wbgt * 10) / 10,
        c.heatRuleAppliesToday ? w.yes! : w.no!,
      ]),
    ),
  ];
  return BOM + lines.join('\r\n') + '\r\n';
}
