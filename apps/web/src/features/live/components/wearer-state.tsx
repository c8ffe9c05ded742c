import type { WearerSummary } from '@wearable/domain';
import { clsx } from 'clsx';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LOW_BATTERY_PERCENT } from '../api/summary-api';
import { RelativeTimeIn } from './relative-time';

const NONE = '—';

/** The words of a wearer's latest state, made once per list (not per row) and passed to each. */
export type WearerStateText = ReturnType<typeof useWearerStateText>;

/**
 * The cells of one wearer's latest state, shared by the list and the detail page. A list of 10,000
 * asks for this once and hands it to every row: a row that asked for its own translations would
 * pay for that on every mount, and scrolling mounts rows all the time.
 */
export function useWearerStateText() {
  const { t, i18n } = useTranslation('live');
  const locale = i18n.resolvedLanguage ?? 'ja';
  return useMemo(
    () => ({
      locale,
      heartRate: (value: number | null) =>
        value === null ? NONE : t('values.heartRate', { value: Math.round(value) }),
      skinTemperature: (value: number | null) =>
        value === null ? NONE : t('values.skinTemperature', { value: value.toFixed(1) }),
      battery: (value: number | null) => (value === null ? NONE : t('values.battery', { value })),
      unknown: t('values.unknown'),
      worn: t('values.worn'),
      notWorn: t('values.notWorn'),
      online: t('values.online'),
      offline: t('values.offline'),
      never: t('values.never'),
    }),
    [t, locale],
  );
}

export function WornState({ worn, text }: { worn: boolean | null; text: WearerStateText }) {
  if (worn === null) return <span className="text-slate-500">{text.unknown}</span>;
  return worn ? (
    <span className="text-slate-800">{text.worn}</span>
  ) : (
    <span className="font-medium text-amber-800">{text.notWorn}</span>
  );
}

export function ConnectionState({
  connection,
  text,
}: {
  connection: WearerSummary['connection'];
  text: WearerStateText;
}) {
  const online = connection === 'online';
  return (
    <span className="inline-flex items-center gap-1.5">
      <span
        aria-hidden="true"
        className={clsx('size-2 rounded-full', online ? 'bg-emerald-500' : 'bg-slate-400')}
      />
      <span className={online ? 'text-slate-800' : 'font-medium text-slate-600'}>
        {online ? text.online : text.offline}
      </span>
    </span>
  );
}

/** The battery as `label` says it, amber when low (the coverage strip counts the same wearers). */
export function BatteryState({ battery, label }: { battery: number | null; label: string }) {
  const low = battery !== null && battery <= LOW_BATTERY_PERCENT;
  return <span className={low ? 'font-medium text-amber-800' : undefined}>{label}</span>;
}

export function LastSeen({
  at,
  now,
  text,
}: {
  at: string | null;
  now: number;
  text: WearerStateText;
}) {
  return at === null ? (
    <span className="text-slate-500">{text.never}</span>
  ) : (
    <RelativeTimeIn at={at} now={now} locale={text.locale} />
  );
}
