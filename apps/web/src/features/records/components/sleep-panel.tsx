import type { HistoryPoint } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { Table, Td, Th } from '../../../components/ui/table';
import {
  hoursAndMinutes,
  hypnograms,
  type NightHypnogram,
  SLEEP_STAGE_ORDER,
  sleepNights,
} from '../record-math';

const STAGE_COLOUR = {
  DEEP_SLEEP: 'bg-indigo-700',
  LIGHT_SLEEP: 'bg-indigo-400',
  RESTLESS_SLEEP: 'bg-amber-400',
  AWAKE: 'bg-slate-300',
} as const;

/** The newest nights drawn as hypnograms; the table below keeps every night's numbers. */
const DRAWN_NIGHTS = 7;
/** Top to bottom, as hypnograms are read: awake on top, deep sleep at the bottom. */
const LANES = [...SLEEP_STAGE_ORDER].reverse();

/**
 * Sleep by night: each night's stages over time (a hypnogram: one lane per stage, the organisation's clock
 * below), then minutes per stage as a table (the numbers) with a proportion bar beside it.
 */
export function SleepPanel({
  points,
  bucketMinutes,
  timeZone,
}: {
  points: readonly HistoryPoint[];
  bucketMinutes: number;
  /** The organisation's zone: a night is dated by the day it started there (docs/sleep-nights.md). */
  timeZone: string;
}) {
  const { t, i18n } = useTranslation('records');
  const nights = sleepNights(points, bucketMinutes, timeZone);
  if (nights.length === 0)
    return (
      <p data-testid="record-empty" className="text-sm text-slate-500">
        {t('empty.sleep')}
      </p>
    );
  const duration = (m: number) => t('values.duration', hoursAndMinutes(m));
  const nightLabel = (night: string) =>
    new Date(`${night}T12:00:00`).toLocaleDateString(i18n.resolvedLanguage ?? 'ja', {
      month: 'short',
      day: 'numeric',
      weekday: 'short',
    });
  const lng = i18n.resolvedLanguage ?? 'ja';
  const asleepOf = new Map(nights.map((n) => [n.night, n.asleep]));
  return (
    <div data-testid="record-panel-sleep" className="flex flex-col gap-4">
      <div className="flex flex-col gap-3">
        {hypnograms(points, bucketMinutes, timeZone)
          .slice(0, DRAWN_NIGHTS)
          .map((h) => (
            <Hypnogram
              key={h.night}
              hypnogram={h}
              label={t('sleep.hypnogram', {
                night: nightLabel(h.night),
                from: clock(h.start, timeZone, lng),
                to: clock(h.end, timeZone, lng),
                asleep: duration(asleepOf.get(h.night) ?? 0),
              })}
              timeZone={timeZone}
              lng={lng}
            />
          ))}
      </div>
      <Table>
        <caption className="sr-only">{t('sleep.caption')}</caption>
        <thead>
          <tr>
            <Th>{t('sleep.night')}</Th>
            <Th>{t('sleep.asleep')}</Th>
            {SLEEP_STAGE_ORDER.map((s) => (
              <Th key={s}>{t(`sleepStages.${s}`)}</Th>
            ))}
            <Th className="hidden sm:table-cell">
              <span className="sr-only">{t('sleep.bar')}</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {nights.map((n) => {
            const total = SLEEP_STAGE_ORDER.reduce((s, k) => s + n.minutes[k], 0);
            return (
              <tr key={n.night} data-testid="sleep-night" data-night={n.night}>
                <Td className="font-medium">{nightLabel(n.night)}</Td>
                <Td data-testid="sleep-asleep">{duration(n.asleep)}</Td>
                {SLEEP_STAGE_ORDER.map((s) => (
                  <Td key={s} data-testid={`sleep-${s}`} className="tabular-nums">
                    {t('values.minutes', { value: n.minutes[s] })}
                  </Td>
                ))}
                <Td className="hidden w-48 sm:table-cell">
                  <div
                    aria-hidden="true"
                    className="flex h-3 w-40 overflow-hidden rounded bg-slate-100"
                  >
                    {SLEEP_STAGE_ORDER.map((s) => (
                      <div
                        key={s}
                        className={STAGE_COLOUR[s]}
                        style={{ width: `${total ? (n.minutes[s] / total) * 100 : 0}%` }}
                      />
                    ))}
                  </div>
                </Td>
              </tr>
            );
          })}
        </tbody>
      </Table>
    </div>
  );
}

const clock = (ms: number, timeZone: string, lng: string) =>
  new Intl.DateTimeFormat(lng, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(ms);

/** Whole hours of the organisation's clock between start and end, at most six of them evenly spaced. */
function hourTicks(start: number, end: number, timeZone: string): number[] {
  const hour = 3_600_000;
  // Zones are whole or half hours off UTC: the first whole local hour is found within two.
  const minuteOf = (ms: number) =>
    Number(new Intl.DateTimeFormat('en', { minute: 'numeric', timeZone }).format(ms));
  let first = Math.ceil(start / 60_000) * 60_000;
  while (minuteOf(first) !== 0 && first < start + 2 * hour) first += 60_000;
  const hours = Math.floor((end - first) / hour) + 1;
  if (hours <= 0) return [];
  const step = Math.ceil(hours / 6);
  return Array.from({ length: Math.ceil(hours / step) }, (_, i) => first + i * step * hour).filter(
    (ms) => ms <= end,
  );
}

function Hypnogram({
  hypnogram: { night, start, end, spans },
  label,
  timeZone,
  lng,
}: {
  hypnogram: NightHypnogram;
  label: string;
  timeZone: string;
  lng: string;
}) {
  const { t } = useTranslation('records');
  const length = Math.max(end - start, 1);
  const at = (ms: number) => `${((ms - start) / length) * 100}%`;
  const width = (from: number, to: number) => `${((to - from) / length) * 100}%`;
  return (
    <figure data-testid="sleep-hypnogram" data-night={night} className="flex flex-col gap-1">
      <figcaption className="text-sm font-medium text-slate-800">{label}</figcaption>
      {/* The picture; its words are the caption above and the table below. */}
      <div aria-hidden="true" className="grid grid-cols-[auto_1fr] items-center gap-x-2 gap-y-0.5">
        {LANES.map((stage) => (
          <div key={stage} className="contents">
            <span className="text-right text-xs text-slate-600">{t(`sleepStages.${stage}`)}</span>
            <div className="relative h-4 min-w-0 overflow-hidden rounded-sm bg-slate-100">
              {spans
                .filter((s) => s.stage === stage)
                .map((s) => (
                  <div
                    key={s.from}
                    data-stage={stage}
                    className={`absolute inset-y-0 ${STAGE_COLOUR[stage]}`}
                    style={{ left: at(s.from), width: width(s.from, s.to) }}
                  />
                ))}
            </div>
          </div>
        ))}
        <span />
        <div className="relative h-4 text-xs text-slate-600 tabular-nums">
          {hourTicks(start, end, timeZone).map((ms, i, all) => (
            <span
              key={ms}
              className="absolute top-0 whitespace-nowrap"
              style={{
                left: at(ms),
                // The first label starts at its hour, the last one ends there: none leaves the box.
                transform:
                  i === 0
                    ? 'none'
                    : i === all.length - 1
                      ? 'translateX(-100%)'
                      : 'translateX(-50%)',
              }}
            >
              {clock(ms, timeZone, lng)}
            </span>
          ))}
        </div>
      </div>
    </figure>
  );
}
