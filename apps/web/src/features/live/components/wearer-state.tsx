import type { WearerSummary } from '@wearable/domain';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { LOW_BATTERY_PERCENT } from '../api/summary-api';
import { RelativeTime } from './relative-time';

const NONE = '—';

/** The cells of one wearer's latest state, shared by the list and the detail page. */
export function useWearerStateText() {
  const { t } = useTranslation('live');
  return {
    heartRate: (value: number | null) =>
      value === null ? NONE : t('values.heartRate', { value: Math.round(value) }),
    skinTemperature: (value: number | null) =>
      value === null ? NONE : t('values.skinTemperature', { value: value.toFixed(1) }),
    battery: (value: number | null) => (value === null ? NONE : t('values.battery', { value })),
  };
}

export function WornState({ worn }: { worn: boolean | null }) {
  const { t } = useTranslation('live');
  if (worn === null) return <span className="text-slate-500">{t('values.unknown')}</span>;
  return worn ? (
    <span className="text-slate-800">{t('values.worn')}</span>
  ) : (
    <span className="font-medium text-amber-800">{t('values.notWorn')}</span>
  );
}

export function ConnectionState({ connection }: { connection: WearerSummary['connection'] }) {
  const { t } = useTranslation('live');
  const online = connection === 'online';
  return (
    <span className="inline-flex items-center gap-1.5">
      <span
        aria-hidden="true"
        className={clsx('size-2 rounded-full', online ? 'bg-emerald-500' : 'bg-slate-400')}
      />
      <span className={online ? 'text-slate-800' : 'font-medium text-slate-600'}>
        {t(online ? 'values.online' : 'values.offline')}
      </span>
    </span>
  );
}

/** The battery as `label` says it, amber when low (the coverage strip counts the same wearers). */
export function BatteryState({ battery, label }: { battery: number | null; label: string }) {
  const low = battery !== null && battery <= LOW_BATTERY_PERCENT;
  return <span className={low ? 'font-medium text-amber-800' : undefined}>{label}</span>;
}

export function LastSeen({ at, now }: { at: string | null; now: number }) {
  const { t } = useTranslation('live');
  return at === null ? (
    <span className="text-slate-500">{t('values.never')}</span>
  ) : (
    <RelativeTime at={at} now={now} />
  );
}
