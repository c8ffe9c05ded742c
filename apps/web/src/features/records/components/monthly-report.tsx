import { ALERT_TYPES, type MonthlyReportDay, type MonthlyReportResponse } from '@wearable/domain';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button, focusRing } from '../../../components/ui/button';
import { PrintableReport, PrintButton } from '../../../components/ui/printable-report';
import { QueryState } from '../../../components/ui/query-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { useIsDemo } from '../../../lib/app-path';
import { downloadMonthlyReportCsv } from '../api/download-monthly-report-csv';
import { monthOf, useMonthlyReport } from '../api/records-api';
import {
  alertCount,
  asleepMinutes,
  hoursMinutes,
  measuredDays,
  perMeasuredDay,
  shiftMonth,
  strainedHours,
  weekdayOf,
} from '../report-math';

interface MonthlyReportProps {
  uid: string;
  month: string;
  onMonthChange: (month: string) => void;
  /** Names each alert type in the reader's language (the alerts namespace belongs to the alerts feature). */
  typeLabel: (type: (typeof ALERT_TYPES)[number]) => string;
  /** More of the report after its summary, printed with it (staff: the wearer's response times). */
  extra?: ReactNode;
}

/**
 * A wearer's monthly report: the month's figures and one row per day (the organisation's local days) of heart rate,
 * skin temperature, sleep, stress, steps and alerts. Prints on A4 (PrintableReport) and downloads as CSV for Excel.
 */
export function MonthlyReport({ uid, month, onMonthChange, typeLabel, extra }: MonthlyReportProps) {
  const { t, i18n } = useTranslation(['records', 'common']);
  const demo = useIsDemo();
  const report = useMonthlyReport(uid, month);
  const [downloading, setDownloading] = useState(false);
  const latest = monthOf(new Date());
  const lng = i18n.resolvedLanguage === 'en' ? 'en' : 'ja';

  const download = async () => {
    if (downloading) return;
    setDownloading(true);
    const result = await downloadMonthlyReportCsv(uid, month, lng, demo);
    setDownloading(false);
    if (!result.ok) toast.error(t('report.csvFailed'));
  };

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <div
        data-print="hide"
        className="flex flex-wrap items-end gap-2"
        role="group"
        aria-label={t('report.controls')}
      >
        <Button
          variant="outline"
          onClick={() => onMonthChange(shiftMonth(month, -1))}
          data-testid="report-previous"
        >
          ← {t('report.previous')}
        </Button>
        <label className="flex flex-col text-sm font-medium text-slate-800">
          {t('report.month')}
          <input
            type="month"
            value={month}
            max={latest}
            onChange={(e) => e.target.value && onMonthChange(e.target.value)}
            data-testid="report-month"
            className={`mt-1 min-h-11 rounded-md border border-slate-300 bg-white px-3 text-base ${focusRing}`}
          />
        </label>
        <Button
          variant="outline"
          aria-disabled={month >= latest}
          onClick={() => month < latest && onMonthChange(shiftMonth(month, 1))}
          data-testid="report-next"
        >
          {t('report.next')} →
        </Button>
        <div className="flex flex-wrap gap-2 sm:ml-auto">
          <PrintButton testId="report-print">{t('report.print')}</PrintButton>
          <Button
            variant="primary"
            onClick={() => void download()}
            aria-disabled={downloading}
            data-testid="report-csv"
          >
            {downloading ? t('report.csvDownloading') : t('report.csv')}
          </Button>
        </div>
      </div>
      <QueryState
        isPending={report.isPending}
        isError={report.isError}
        isEmpty={false}
        labels={{
          loading: t('common:common.loading'),
          error: t('report.loadFailed'),
          empty: '',
          retry: t('common:common.retry'),
        }}
        onRetry={() => void report.refetch()}
      >
        {report.data && <ReportBody report={report.data} typeLabel={typeLabel} extra={extra} />}
      </QueryState>
    </div>
  );
}

function ReportBody({
  report,
  typeLabel,
  extra,
}: {
  report: MonthlyReportResponse;
  typeLabel: MonthlyReportProps['typeLabel'];
  extra: ReactNode;
}) {
  const { t, i18n } = useTranslation(['records', 'common']);
  const headingId = useId();
  const [year, monthNumber] = report.month.split('-');
  const number = new Intl.NumberFormat(i18n.resolvedLanguage);
  const { totals, days } = report;
  const measured = measuredDays(days).length;
  const duration = (minutes: number) => t('values.duration', hoursMinutes(minutes));
  const dash = '—';
  const alertTypes = ALERT_TYPES.filter((type) => (totals.alerts[type] ?? 0) > 0);

  const facts = [
    {
      key: 'heartRate',
      label: t('report.facts.heartRate'),
      value:
        totals.heartRate.avg === null
          ? dash
          : t('values.heartRate', { value: totals.heartRate.avg }),
    },
    {
      key: 'heartRateRange',
      label: t('report.facts.heartRateRange'),
      value:
        totals.heartRate.min === null
          ? dash
          : `${totals.heartRate.min}–${totals.heartRate.max ?? dash} bpm`,
    },
    {
      key: 'skinTemperature',
      label: t('report.facts.skinTemperature'),
      value:
        totals.skinTemperature.avg === null
          ? dash
          : t('values.skinTemperature', { value: totals.skinTemperature.avg.toFixed(1) }),
    },
    {
      key: 'steps',
      label: t('report.facts.steps'),
      value: t('values.steps', { value: number.format(totals.steps) }),
    },
    {
      key: 'stepsPerDay',
      label: t('report.facts.stepsPerDay'),
      value:
        perMeasuredDay(days, (d) => d.steps) === null
          ? dash
          : t('values.steps', { value: number.format(perMeasuredDay(days, (d) => d.steps)!) }),
    },
    {
      key: 'sleepPerDay',
      label: t('report.facts.sleepPerDay'),
      value:
        perMeasuredDay(days, asleepMinutes) === null
          ? dash
          : duration(perMeasuredDay(days, asleepMinutes)!),
    },
    {
      key: 'stress',
      label: t('report.facts.stress'),
      value: t('report.hours', { count: strainedHours(totals) }),
    },
    {
      key: 'alerts',
      label: t('report.facts.alerts'),
      value: t('report.count', { count: alertCount(totals) }),
    },
  ];

  return (
    <PrintableReport
      testId="monthly-report"
      printHeading={t('report.printedBy', { product: t('common:shell.productName') })}
    >
      <header className="grid gap-1">
        <h2
          id={headingId}
          className="text-lg font-semibold text-slate-900"
          data-testid="report-title"
        >
          {t('report.title', { name: report.name, year, month: Number(monthNumber) })}
        </h2>
        <p className="text-sm text-slate-600">
          {t('report.timeZone', { timeZone: report.timeZone })}{' '}
          {t('report.measuredDays', { count: measured, days: days.length })}
        </p>
      </header>
      <section aria-labelledby={`${headingId}-summary`} data-print="keep">
        <h3 id={`${headingId}-summary`} className="mb-2 text-base font-semibold text-slate-900">
          {t('report.summary')}
        </h3>
        <dl
          className="grid grid-cols-2 gap-3 sm:grid-cols-4 print:grid-cols-4"
          data-testid="report-facts"
        >
          {facts.map((fact) => (
            <div
              key={fact.key}
              className="rounded-lg border border-slate-200 bg-white p-3 print:p-2"
              data-testid={`report-fact-${fact.key}`}
            >
              <dt className="text-xs text-slate-600">{fact.label}</dt>
              <dd className="mt-1 text-base font-semibold text-slate-900 tabular-nums">
                {fact.value}
              </dd>
            </div>
          ))}
        </dl>
        {alertTypes.length > 0 && (
          <p className="mt-2 text-sm text-slate-700" data-testid="report-alert-types">
            {alertTypes
              .map((type) => `${typeLabel(type)} ${totals.alerts[type]}`)
              .join(t('report.separator'))}
          </p>
        )}
      </section>
      {extra}
      {measured > 0 && <DailyChart days={days} />}
      {measured === 0 && (
        <p
          className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600"
          data-testid="report-empty"
        >
          {t('report.empty')}
        </p>
      )}
      <section aria-labelledby={`${headingId}-days`}>
        <h3 id={`${headingId}-days`} className="mb-2 text-base font-semibold text-slate-900">
          {t('report.daily')}
        </h3>
        <Table label={t('report.daily')} data-testid="report-table">
          <thead>
            <tr>
              <Th>{t('report.columns.date')}</Th>
              <Th className="text-right">{t('report.columns.heartRate')}</Th>
              <Th className="text-right">{t('report.columns.skinTemperature')}</Th>
              <Th className="text-right">{t('report.columns.steps')}</Th>
              <Th className="text-right">{t('report.columns.worn')}</Th>
              <Th className="text-right">{t('report.columns.sleep')}</Th>
              <Th className="text-right">{t('report.columns.stress')}</Th>
              <Th className="text-right">{t('report.columns.alerts')}</Th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <DayRow key={d.date} day={d} typeLabel={typeLabel} />
            ))}
          </tbody>
          <tfoot>
            <tr className="font-semibold">
              <Td>{t('report.total')}</Td>
              <Td className="text-right tabular-nums">
                {totals.heartRate.avg === null
                  ? dash
                  : `${Math.round(totals.heartRate.avg)} (${totals.heartRate.min}–${totals.heartRate.max})`}
              </Td>
              <Td className="text-right tabular-nums">
                {totals.skinTemperature.avg === null ? dash : totals.skinTemperature.avg.toFixed(1)}
              </Td>
              <Td className="text-right tabular-nums">{number.format(totals.steps)}</Td>
              <Td className="text-right tabular-nums">{duration(totals.wornMinutes)}</Td>
              <Td className="text-right tabular-nums">{duration(asleepMinutes(totals))}</Td>
              <Td className="text-right tabular-nums">{strainedHours(totals)}</Td>
              <Td className="text-right tabular-nums">{alertCount(totals)}</Td>
            </tr>
          </tfoot>
        </Table>
        <p className="mt-2 text-xs text-slate-600">{t('report.legend')}</p>
      </section>
    </PrintableReport>
  );
}

function DayRow({
  day: d,
  typeLabel,
}: {
  day: MonthlyReportDay;
  typeLabel: MonthlyReportProps['typeLabel'];
}) {
  const { t, i18n } = useTranslation('records');
  const number = new Intl.NumberFormat(i18n.resolvedLanguage);
  const weekday = weekdayOf(d.date);
  const date = `${d.date.slice(5).replace('-', '/')} (${t(`report.weekdays.${weekday}`)})`;
  const alerts = alertCount(d);
  const names = ALERT_TYPES.filter((type) => (d.alerts[type] ?? 0) > 0).map(
    (type) => `${typeLabel(type)} ${d.alerts[type]}`,
  );
  const dash = '—';
  const weekend = weekday === 0 || weekday === 6;
  return (
    <tr data-testid="report-day">
      <Td className={weekend ? 'text-slate-600' : undefined}>{date}</Td>
      <Td className="text-right tabular-nums">
        {d.heartRate.avg === null
          ? dash
          : `${Math.round(d.heartRate.avg)} (${d.heartRate.min}–${d.heartRate.max})`}
      </Td>
      <Td className="text-right tabular-nums">
        {d.skinTemperature.avg === null ? dash : d.skinTemperature.avg.toFixed(1)}
      </Td>
      <Td className="text-right tabular-nums">{d.steps > 0 ? number.format(d.steps) : dash}</Td>
      <Td className="text-right tabular-nums">
        {d.wornMinutes > 0 ? t('values.duration', hoursMinutes(d.wornMinutes)) : dash}
      </Td>
      <Td className="text-right tabular-nums">
        {asleepMinutes(d) > 0 ? t('values.duration', hoursMinutes(asleepMinutes(d))) : dash}
      </Td>
      <Td className="text-right tabular-nums">{strainedHours(d) > 0 ? strainedHours(d) : dash}</Td>
      <Td
        className={
          alerts > 0
            ? 'text-right font-semibold text-red-700 tabular-nums'
            : 'text-right tabular-nums'
        }
      >
        {alerts > 0 ? (
          <span title={names.join(t('report.separator'))}>
            {alerts}
            <span className="sr-only">: {names.join(t('report.separator'))}</span>
          </span>
        ) : (
          dash
        )}
      </Td>
    </tr>
  );
}

/**
 * Daily heart rate (lowest to highest, the mean marked) and steps as one SVG: it scales to any width and prints sharp.
 * The table below holds the same numbers for screen readers, so the drawing itself is hidden from them.
 */
function DailyChart({ days }: { days: MonthlyReportDay[] }) {
  const { t } = useTranslation('records');
  const width = 720;
  const hrHeight = 120;
  const stepsHeight = 60;
  const left = 34;
  const gap = 18;
  const slot = (width - left) / days.length;
  const hrValues = days
    .flatMap((d) => [d.heartRate.min, d.heartRate.max])
    .filter((v): v is number => v !== null);
  const hrLow = Math.max(0, Math.floor((Math.min(...hrValues, 60) - 10) / 10) * 10);
  const hrHigh = Math.ceil((Math.max(...hrValues, 100) + 10) / 10) * 10;
  const top = 8;
  const y = (v: number) => top + hrHeight - ((v - hrLow) / (hrHigh - hrLow)) * hrHeight;
  const maxSteps = Math.max(...days.map((d) => d.steps), 1);
  const stepsTop = top + hrHeight + gap;
  const ticks = [hrLow, Math.round((hrLow + hrHigh) / 2), hrHigh];
  return (
    <section data-print="keep" className="rounded-lg border border-slate-200 bg-white p-3">
      <h3 className="mb-1 text-base font-semibold text-slate-900">{t('report.chartTitle')}</h3>
      <p className="mb-2 text-xs text-slate-600">{t('report.chartHelp')}</p>
      <svg
        viewBox={`0 0 ${width} ${stepsTop + stepsHeight + 14}`}
        className="h-auto w-full"
        aria-hidden="true"
        data-testid="report-chart"
      >
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={left} x2={width} y1={y(tick)} y2={y(tick)} className="stroke-slate-200" />
            <text
              x={left - 4}
              y={y(tick) + 3}
              fontSize="9"
              textAnchor="end"
              className="fill-slate-600"
            >
              {tick}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = left + slot * i + slot / 2;
          return (
            <g key={d.date}>
              {d.heartRate.min !== null && d.heartRate.max !== null && (
                <line
                  x1={x}
                  x2={x}
                  y1={y(d.heartRate.min)}
                  y2={y(d.heartRate.max)}
                  className="stroke-teal-700"
                  strokeWidth={Math.max(2, slot * 0.35)}
                  strokeLinecap="round"
                  opacity="0.35"
                />
              )}
              {d.heartRate.avg !== null && (
                <circle cx={x} cy={y(d.heartRate.avg)} r="2.5" className="fill-teal-700" />
              )}
              <rect
                x={x - slot * 0.3}
                width={slot * 0.6}
                y={stepsTop + stepsHeight - (d.steps / maxSteps) * stepsHeight}
                height={(d.steps / maxSteps) * stepsHeight}
                className="fill-slate-700"
              />
              {(i === 0 || (i + 1) % 5 === 0) && (
                <text
                  x={x}
                  y={stepsTop + stepsHeight + 11}
                  fontSize="9"
                  textAnchor="middle"
                  className="fill-slate-600"
                >
                  {i + 1}
                </text>
              )}
            </g>
          );
        })}
        <text
          x={left - 4}
          y={stepsTop + 8}
          fontSize="9"
          textAnchor="end"
          className="fill-slate-600"
        >
          {t('report.stepsAxis')}
        </text>
      </svg>
    </section>
  );
}
