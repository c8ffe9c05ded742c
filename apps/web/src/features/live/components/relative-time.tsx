import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLocalDateTime } from '../../../lib/date-format';

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', Number.POSITIVE_INFINITY],
];

/** One formatter per language: making one costs more than formatting a thousand times with it. */
const formats = new Map<string, Intl.RelativeTimeFormat>();

/** "3 minutes ago" in the reader's language, from an elapsed time in ms. */
export function formatRelative(elapsedMs: number, locale: string): string {
  let format = formats.get(locale);
  if (!format)
    formats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })));
  let value = Math.max(0, Math.round(elapsedMs / 1000));
  for (const [unit, size] of STEPS) {
    if (value < size) return format.format(-value, unit);
    value = Math.floor(value / size);
  }
  return format.format(-value, 'day');
}

/** The current time, refreshed every `everyMs` so relative times keep moving. */
export function useNow(everyMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** A relative time with the exact time as the machine-readable value and tooltip. */
export function RelativeTime({ at, now }: { at: string; now: number }) {
  const { i18n } = useTranslation();
  return <RelativeTimeIn at={at} now={now} locale={i18n.resolvedLanguage ?? 'ja'} />;
}

/** RelativeTime in a language the caller knows (a list passes it to each row). */
export function RelativeTimeIn({ at, now, locale }: { at: string; now: number; locale: string }) {
  const date = new Date(at);
  return (
    <time dateTime={at} title={formatLocalDateTime(at, locale)}>
      {formatRelative(now - date.getTime(), locale)}
    </time>
  );
}
