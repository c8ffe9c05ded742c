import type { HistoryPoint } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { Table, Td, Th } from '../../../components/ui/table';
import { hoursAndMinutes, SLEEP_STAGE_ORDER, sleepNights } from '../record-math';

const STAGE_COLOUR = {
  DEEP_SLEEP: 'bg-indigo-700',
  LIGHT_SLEEP: 'bg-indigo-400',
  RESTLESS_SLEEP: 'bg-amber-400',
  AWAKE: 'bg-slate-300',
} as const;

/** Sleep by night: minutes per stage, as a table (the numbers) with a proportion bar beside it. */
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
  return (
    <div data-testid="record-panel-sleep">
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
