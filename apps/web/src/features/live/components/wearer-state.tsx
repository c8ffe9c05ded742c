import type { WearerSummary } from '@wearable/domain';
import { clsx } from 'clsx';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LOW_BATTERY_PERCENT } from '../api/summary-api';
import { formatRelative, RelativeTimeIn } from './relative-time';

const NONE = '—';

/**
 * A value older than this is stale whatever the server's `connection` said when the cache was filled:
 * three duty cycles of the slowest bracelet (10 minutes), the longest window the server's offline
 * (max(3 duty cycles, 10 min)) can have. Between polls the clock moves on without a new answer.
 */
export const STALE_AFTER_MS = 3 * 10 * 60_000;

/**
 * How old a wearer's latest values are when they are stale (the server says offline: older than 3 of
 * its duty cycles, or older than STALE_AFTER_MS by the page's clock); null while they are current or
 * there are none. Stale values are shown greyed with their age, never as current (issue 34 item 6).
 */
export function staleAgeMs(
  wearer: { connection: WearerSummary['connection']; lastSeenAt: string | null },
  now: number,
): number | null {
  if (wearer.lastSeenAt === null) return null;
  const age = Math.max(0, now - new Date(wearer.lastSeenAt).getTime());
  return wearer.connection === 'offline' || age > STALE_AFTER_MS ? age : null;
}

/**
 * One latest value: as it is while current; greyed with its age when stale ("118 bpm · 13 分前"),
 * or with the age for screen readers only (`showAge` false: the row already shows it once).
 */
export function LatestValue({
  staleMs,
  text,
  showAge = true,
  children,
}: {
  staleMs: number | null;
  text: WearerStateText;
  showAge?: boolean;
  children: ReactNode;
}) {
  if (staleMs === null) return <>{children}</>;
  const age = formatRelative(staleMs, text.locale);
  return (
    <span data-stale="true" className="text-slate-500 italic" title={text.staleLabel(age)}>
      {children}
      {showAge ? (
        <span className="not-italic"> · {age}</span>
      ) : (
        <span className="sr-only"> ({text.staleLabel(age)})</span>
      )}
    </span>
  );
}

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
      staleLabel: (age: string) => t('values.staleLabel', { age }),
    }),
    [t, locale],
  );
}

export function WornState({
  worn,
  text,
  stale = false,
}: {
  worn: boolean | null;
  text: WearerStateText;
  /** The value is stale: greyed (in a LatestValue), never in the colours of a current state. */
  stale?: boolean;
}) {
  if (worn === null) return <span className="text-slate-500">{text.unknown}</span>;
  if (stale) return <span>{worn ? text.worn : text.notWorn}</span>;
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
export function BatteryState({
  battery,
  label,
  stale = false,
}: {
  battery: number | null;
  label: string;
  stale?: boolean;
}) {
  const low = !stale && battery !== null && battery <= LOW_BATTERY_PERCENT;
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
