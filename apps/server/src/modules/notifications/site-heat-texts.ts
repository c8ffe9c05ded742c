import { formatTime, type SiteHeatLevel } from '@wearable/domain';
import { type Lang, SITE_HEAT_LEVEL_LABELS } from '../alerts/alerts.service.js';

export interface SiteHeatMessageInput {
  kind: 'rise' | 'clear';
  from: SiteHeatLevel;
  to: SiteHeatLevel;
  wbgt: number | null;
  groupName: string | null;
  gatewayName: string;
  at: Date;
  timeZone: string;
}

/** What the contacts should do at each level (the guideline's advice, shortened for an SMS). */
const ADVICE: Record<Lang, Record<SiteHeatLevel, string>> = {
  ja: {
    NORMAL: '',
    CAUTION: 'こまめな休憩と水分・塩分の補給を',
    SEVERE: '休憩を増やし、水分・塩分の補給と体調確認を',
    DANGER: '作業中止・休憩の判断を',
  },
  en: {
    NORMAL: '',
    CAUTION: 'Take regular breaks, water and salt',
    SEVERE: 'More breaks, water and salt, check on each worker',
    DANGER: 'Decide on stopping work and breaks',
  },
};

/**
 * The SMS / call text of a change of a site's heat level, e.g.
 * 「【危険】第一現場 (東ゲート): 暑さ指数 WBGT 31.4 — 危険レベルになりました。作業中止・休憩の判断を 14:03」.
 */
export function siteHeatMessage(m: SiteHeatMessageInput, lang: Lang = 'ja'): string {
  const labels = SITE_HEAT_LEVEL_LABELS[lang];
  const where = m.groupName ? `${m.groupName} (${m.gatewayName})` : m.gatewayName;
  const wbgt = m.wbgt === null ? '' : m.wbgt.toFixed(1);
  const time = formatTime(m.at, m.timeZone);
  if (m.kind === 'rise') {
    return lang === 'ja'
      ? `【${labels[m.to]}】${where}: 暑さ指数 WBGT ${wbgt} — ${labels[m.to]}レベルになりました。${ADVICE.ja[m.to]} ${time}`
      : `[${labels[m.to]}] ${where}: WBGT ${wbgt} — the site is now at the ${labels[m.to].toLowerCase()} level. ${ADVICE.en[m.to]} ${time}`;
  }
  return lang === 'ja'
    ? `【解除】${where}: 暑さ指数 WBGT ${wbgt} — ${labels.SEVERE}レベルを下回りました (現在: ${labels[m.to]}) ${time}`
    : `[Cleared] ${where}: WBGT ${wbgt} — the site is below the severe level (now: ${labels[m.to].toLowerCase()}) ${time}`;
}
