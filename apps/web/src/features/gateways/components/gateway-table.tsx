import type { GatewayListItem } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { Table, Td, Th } from '../../../components/ui/table';
import { AppLink } from '../../../lib/app-path';
import { GatewayReport } from './gateway-report';
import { GatewayStatus } from './gateway-status';
import { RefusingBadge } from './refusing-badge';
import { PhoneNotice } from './phone-notice';

interface GatewayTableProps {
  gateways: readonly GatewayListItem[];
  /** The page a gateway's name leads to (its detail under /gateways or under /organization). */
  linkTo: (gateway: GatewayListItem) => string;
  caption: string;
}

/** Gateways with their status: online or offline since when, the last batch, the bracelets behind each. */
export function GatewayTable({ gateways, linkTo, caption }: GatewayTableProps) {
  const { t } = useTranslation();
  return (
    <Table data-testid="gateway-table" label={caption}>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <Th>{t('gateways.columns.name')}</Th>
          <Th>{t('gateways.columns.status')}</Th>
          <Th>{t('gateways.columns.lastBatch')}</Th>
          <Th>{t('gateways.columns.bracelets')}</Th>
          <Th>{t('gateways.columns.group')}</Th>
          <Th>{t('gateways.columns.type')}</Th>
          <Th>{t('gateways.columns.serialNumber')}</Th>
        </tr>
      </thead>
      <tbody>
        {gateways.map((gateway) => (
          <tr key={gateway.id} data-testid="gateway-row">
            <Td>
              <AppLink
                to={linkTo(gateway)}
                className={`font-medium text-teal-800 hover:underline ${focusRing}`}
              >
                {gateway.name}
              </AppLink>
              <PhoneNotice gateway={gateway} />
            </Td>
            <Td>
              <GatewayStatus gateway={gateway} />
              <GatewayReport gateway={gateway} />
              <RefusingBadge gateway={gateway} />
            </Td>
            <Td>
              {gateway.lastSeenAt === null ? (
                t('gateways.never')
              ) : (
                <DateTime at={gateway.lastSeenAt} />
              )}
            </Td>
            <Td data-testid="gateway-bracelets">{gateway.braceletCount}</Td>
            <Td>{gateway.groupName ?? t('gateways.noGroup')}</Td>
            <Td>{t(`gateways.types.${gateway.type}`)}</Td>
            <Td className="font-mono text-xs">{gateway.serialNumber}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
