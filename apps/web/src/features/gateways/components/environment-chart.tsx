import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LineChart, type LineAxis, type LineSeries } from '../../../components/ui/line-chart';
import { QueryState } from '../../../components/ui/query-state';
import { useGatewayEnvironment } from '../api/gateway-environment';

/** The gateway's temperature and WBGT (°C, left axis) and humidity (%, right axis) over the last 24 hours. */
export function EnvironmentChart({ gatewayId }: { gatewayId: string }) {
  const { t, i18n } = useTranslation();
  const environment = useGatewayEnvironment(gatewayId);
  const points = useMemo(() => environment.data?.points ?? [], [environment.data]);
  const times = useMemo(() => points.map((p) => Date.parse(p.at)), [points]);
  const series = useMemo<LineSeries[]>(
    () => [
      {
        label: t('gateways.environment.temperature'),
        colour: '#c2410c',
        values: points.map((p) => p.temperature),
        scale: 'c',
      },
      {
        label: t('gateways.environment.wbgt'),
        colour: '#7c3aed',
        values: points.map((p) => p.wbgt),
        scale: 'c',
      },
      {
        label: t('gateways.environment.humidity'),
        colour: '#0369a1',
        values: points.map((p) => p.humidity),
        scale: 'pct',
      },
    ],
    [points, t],
  );
  const axes = useMemo<LineAxis[]>(
    () => [
      { scale: 'c', label: t('gateways.environment.celsius') },
      { scale: 'pct', label: t('gateways.environment.percent') },
    ],
    [t],
  );
  return (
    <QueryState
      isPending={environment.isPending}
      isError={environment.isError}
      isEmpty={points.length === 0}
      labels={{
        loading: t('common.loading'),
        error: t('common.loadFailed'),
        empty: t('gateways.environment.empty'),
        retry: t('common.retry'),
      }}
      onRetry={() => void environment.refetch()}
    >
      <LineChart
        times={times}
        series={series}
        axes={axes}
        timeLabel={t('gateways.environment.time')}
        locale={i18n.resolvedLanguage ?? 'ja'}
        label={t('gateways.environment.chartLabel')}
        testId="environment-chart"
      />
    </QueryState>
  );
}
