import { formatTime } from '@wearable/domain';
import type { Lang } from '../alerts/alerts.service.js';

export interface GatewaySilenceMessageInput {
  gatewayName: string;
  groupName: string | null;
  wearerCount: number;
  lastHeardAt: Date;
  at: Date;
  timeZone: string;
}

/**
 * The one message of a silent gateway, e.g.
 * 「【通信途絶】第一現場 (東ゲート): ゲートウェイから 6 分受信がありません (最終受信 14:03)。装着者 3 名の
 * データが届いていません。各装着者の通信途絶はこの通知にまとめます」.
 */
export function gatewaySilenceMessage(m: GatewaySilenceMessageInput, lang: Lang = 'ja'): string {
  const where = m.groupName ? `${m.groupName} (${m.gatewayName})` : m.gatewayName;
  const minutes = Math.max(1, Math.floor((m.at.getTime() - m.lastHeardAt.getTime()) / 60_000));
  const last = formatTime(m.lastHeardAt, m.timeZone);
  return lang === 'ja'
    ? `【通信途絶】${where}: ゲートウェイから ${minutes} 分受信がありません (最終受信 ${last})。装着者 ${m.wearerCount} 名のデータが届いていません。各装着者の通信途絶はこの通知にまとめます`
    : `[Gateway silent] ${where}: nothing received from the gateway for ${minutes} min (last ${last}). Data of ${m.wearerCount} wearers is not arriving; their disconnection alerts are covered by this message`;
}
