import type { GatewayDetail } from '@wearable/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { PageHeading } from '../../../components/ui/page-heading';
import { QueryState } from '../../../components/ui/query-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { useCan } from '../../../lib/use-can';
import { useGateway } from '../api/get-gateway';
import { EnvironmentChart } from './environment-chart';
import { GatewayReport } from './gateway-report';
import { GatewayStatus } from './gateway-status';
import { PhoneNotice } from './phone-notice';
import { UnknownDevicesPanel } from './unknown-devices-panel';
import { GatewayRefusalsPanel } from './gateway-refusals-panel';
import { RefusingBadge } from './refusing-badge';

const linkClass = `inline-flex min-h-11 items-center rounded-md border border-slate-300 px-3 text-sm font-medium text-teal-800 hover:bg-slate-50 ${focusRing}`;
const one = (value: number | null, unit: string) =>
  value === null ? '--' : `${value.toFixed(1)} ${unit}`;

/** One gateway: its status, latest environment and its chart, the bracelets behind it. */
export function GatewayDetailView({ gatewayId, back }: { gatewayId: string; back: ReactNode }) {
  const { t } = useTranslation();
  const gateway = useGateway(gatewayId);
  return (
    <section>
      <PageHeading actions={back}>{gateway.data?.name ?? t('pages.gatewayDetail')}</PageHeading>
      <QueryState
        isPending={gateway.isPending}
        isError={gateway.isError}
        isEmpty={false}
        labels={{
          loading: t('common.loading'),
          error: t('gateways.detailFailed'),
          empty: '',
          retry: t('common.retry'),
        }}
        onRetry={() => void gateway.refetch()}
      >
        {gateway.data && <GatewayBody gateway={gateway.data} />}
      </QueryState>
    </section>
  );
}

function GatewayBody({ gateway }: { gateway: GatewayDetail }) {
  const { t } = useTranslation();
  const mayManage = useCan('gateway:manage', { organizationId: gateway.clientId });
  const facts: [string, ReactNode][] = [
    [
      t('gateways.columns.status'),
      <span key="s">
        <GatewayStatus gateway={gateway} />
        <GatewayReport gateway={gateway} />
        <RefusingBadge gateway={gateway} />
        <PhoneNotice gateway={gateway} />
      </span>,
    ],
    [
      t('gateways.columns.lastBatch'),
      gateway.lastBatchAt === null ? (
        t('gateways.never')
      ) : (
        <DateTime key="b" at={gateway.lastBatchAt} />
      ),
    ],
    [t('gateways.columns.bracelets'), gateway.bracelets.length],
    [t('gateways.columns.group'), gateway.groupName ?? t('gateways.noGroup')],
    [t('gateways.columns.type'), t(`gateways.types.${gateway.type}`)],
    [t('gateways.columns.kind'), t(`gateways.kinds.${gateway.kind}`)],
    [
      t('gateways.columns.serialNumber'),
      <span key="n" className="font-mono text-xs break-all">
        {gateway.serialNumber}
      </span>,
    ],
  ];
  const env = gateway.environment;
  return (
    <div className="space-y-6">
      <dl
        className="grid gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-2"
        data-testid="gateway-facts"
      >
        {facts.map(([label, value]) => (
          <div
            key={label}
            className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-100 pb-1"
          >
            <dt className="text-slate-600">{label}</dt>
            <dd className="font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {mayManage && (
        <AppLink
          to={paths.settings.gateways.build()}
          className={linkClass}
          data-testid="gateway-manage-link"
        >
          {t('gateways.manage')}
        </AppLink>
      )}
      <section
        aria-labelledby="gateway-env-title"
        className="rounded-lg border border-slate-200 bg-white p-4"
      >
        <h2 id="gateway-env-title" className="text-base font-semibold text-slate-900">
          {t('gateways.environment.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-700" data-testid="gateway-environment-latest">
          {env === null ? (
            t('gateways.environment.none')
          ) : (
            <>
              {t('gateways.environment.temperature')} {one(env.temperature, '°C')} ・{' '}
              {t('gateways.environment.humidity')} {one(env.humidity, '%')} ・{' '}
              {t('gateways.environment.wbgt')} {one(env.wbgt, '°C')} (<DateTime at={env.at} />)
            </>
          )}
        </p>
        <div className="mt-3">
          <EnvironmentChart gatewayId={gateway.id} />
        </div>
      </section>
      <GatewayRefusalsPanel gateway={gateway} />
      {gateway.kind !== 'native' && <UnknownDevicesPanel gateway={gateway} />}
      <section aria-labelledby="gateway-bracelets-title">
        <h2 id="gateway-bracelets-title" className="mb-2 text-base font-semibold text-slate-900">
          {t('gateways.bracelets.title')}
        </h2>
        {gateway.bracelets.length === 0 ? (
          <p
            className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500"
            data-testid="gateway-no-bracelets"
          >
            {t('gateways.bracelets.empty')}
          </p>
        ) : (
          <Table data-testid="gateway-bracelet-table" label={t('gateways.bracelets.title')}>
            <caption className="sr-only">{t('gateways.bracelets.title')}</caption>
            <thead>
              <tr>
                <Th>{t('gateways.bracelets.serialNumber')}</Th>
                <Th>{t('gateways.bracelets.wearer')}</Th>
                <Th>{t('gateways.bracelets.pairing')}</Th>
                <Th>{t('gateways.bracelets.battery')}</Th>
                <Th>{t('gateways.bracelets.deviceName')}</Th>
              </tr>
            </thead>
            <tbody>
              {gateway.bracelets.map((b) => (
                <tr key={b.wearableId} data-testid="gateway-bracelet-row">
                  <Td className="font-mono text-xs">{b.serialNumber}</Td>
                  <Td>
                    {b.uid === null ? (
                      t('gateways.bracelets.noWearer')
                    ) : (
                      <AppLink
                        to={paths.device.detail.build({ clientId: gateway.clientId, uid: b.uid })}
                        className={`text-teal-800 hover:underline ${focusRing}`}
                      >
                        {b.name ?? b.uid}
                      </AppLink>
                    )}
                  </Td>
                  <Td>
                    {b.isPaired ? t('gateways.bracelets.paired') : t('gateways.bracelets.pending')}
                  </Td>
                  <Td>{b.battery === null ? '--' : `${b.battery}%`}</Td>
                  <Td>{b.deviceName}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
    </div>
  );
}
