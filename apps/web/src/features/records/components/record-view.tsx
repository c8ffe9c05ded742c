import type { HistoryResponse } from '@wearable/domain';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/ui/query-state';
import { bucketMinutesOf, type RecordPeriod, useRecordHistory } from '../api/records-api';
import { MetricPanel } from './metric-panel';
import { PeriodSwitch } from './period-switch';
import { SleepPanel } from './sleep-panel';
import { StepsPanel } from './steps-panel';
import { StressPanel } from './stress-panel';
import { type TabItem, Tabs } from './tabs';

type RecordTab = 'heartRate' | 'skinTemperature' | 'sleep' | 'stress' | 'steps' | 'alerts';

interface RecordViewProps {
  uid: string;
  /** When the wearer was last heard (the live summary): the history follows it (`useRecordHistory`). */
  seenAt?: string | null;
  /** The wearer's alerts over the period; the page composes it from the alerts feature. */
  renderAlerts: (period: RecordPeriod) => ReactNode;
}

/** The wearer's records over a day, a week or a month, one tab per kind of record. */
export function RecordView({ uid, seenAt, renderAlerts }: RecordViewProps) {
  const { t } = useTranslation(['records', 'common']);
  const [period, setPeriod] = useState<RecordPeriod>('day');
  const [tab, setTab] = useState<RecordTab>('heartRate');
  const history = useRecordHistory(uid, period, seenAt);
  const data = history.data;
  const points = data?.points ?? [];
  const bucket = bucketMinutesOf(period);
  const withDate = period !== 'day';

  // Alerts have their own query; the other tabs wait for the history.
  const withHistory = (panel: (data: HistoryResponse) => ReactNode) => (
    <QueryState
      isPending={history.isPending}
      isError={history.isError}
      isEmpty={points.length === 0}
      labels={{
        loading: t('common:common.loading'),
        error: t('common:common.loadFailed'),
        empty: t('empty.period'),
        retry: t('common:common.retry'),
      }}
      onRetry={() => void history.refetch()}
    >
      {data && panel(data)}
    </QueryState>
  );

  const items: TabItem<RecordTab>[] = [
    {
      key: 'heartRate',
      label: t('metrics.heartRate'),
      panel: withHistory((d) => <MetricPanel history={d} metric="heartRate" withDate={withDate} />),
    },
    {
      key: 'skinTemperature',
      label: t('metrics.skinTemperature'),
      panel: withHistory((d) => (
        <MetricPanel history={d} metric="skinTemperature" withDate={withDate} />
      )),
    },
    {
      key: 'sleep',
      label: t('metrics.sleep'),
      panel: withHistory((d) => (
        <SleepPanel points={d.points} bucketMinutes={bucket} timeZone={d.timeZone} />
      )),
    },
    {
      key: 'stress',
      label: t('metrics.stress'),
      panel: withHistory((d) => (
        <StressPanel history={d} bucketMinutes={bucket} withDate={withDate} />
      )),
    },
    {
      key: 'steps',
      label: t('metrics.steps'),
      panel: withHistory((d) => (
        <StepsPanel points={d.points} period={period} timeZone={d.timeZone} />
      )),
    },
    { key: 'alerts', label: t('metrics.alerts'), panel: renderAlerts(period) },
  ];

  return (
    <section
      aria-labelledby="record-title"
      data-testid="record-view"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="record-title" className="text-base font-semibold text-slate-900">
          {t('title')}
        </h2>
        <PeriodSwitch period={period} onChange={setPeriod} />
      </div>
      <p className="mb-2 text-xs text-slate-500">{t(`period.hint.${period}`)}</p>
      <Tabs label={t('tabsLabel')} items={items} selected={tab} onSelect={setTab} />
    </section>
  );
}
