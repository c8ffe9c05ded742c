import { formatPosition, type MapGateway, type MapPerson, zoneName } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { formatLocalDateTime } from '../../../lib/date-format';

/**
 * A person's place and its time as the list and the plan's panels say them, e.g. 「本館 · 1階 食堂」
 * since 「2026/11/26 14:03」, "Last heard at Entrance", "Place unknown".
 */
export function usePlaceText(gateways: Map<string, MapGateway>) {
  const { t, i18n } = useTranslation('map');
  const zone = (gatewayId: string) => {
    const g = gateways.get(gatewayId);
    return zoneName({
      gatewayId,
      gatewayName: g?.name ?? null,
      siteName: g?.siteName ?? null,
    });
  };
  const time = (at: string) => formatLocalDateTime(at, i18n.resolvedLanguage);
  return {
    place(p: MapPerson): string {
      switch (p.place.kind) {
        case 'gateway':
          return zone(p.place.gatewayId);
        case 'position':
          return t('place.position', { position: formatPosition(p.place) });
        case 'last-heard':
          return t('place.lastHeard', { zone: zone(p.place.gatewayId) });
        case 'unknown':
          return t('place.unknown');
        case 'withheld':
          return t('place.withheld');
      }
    },
    /** Since when the place holds (or when it was last heard); empty when unknown. */
    since(p: MapPerson): { label: string; at: string } | null {
      switch (p.place.kind) {
        case 'gateway':
          return { label: t('since.since', { time: time(p.place.since) }), at: p.place.since };
        case 'position':
          return { label: t('since.at', { time: time(p.place.at) }), at: p.place.at };
        case 'last-heard':
          return { label: t('since.at', { time: time(p.place.at) }), at: p.place.at };
        case 'unknown':
        case 'withheld':
          return null;
      }
    },
    time,
  };
}
