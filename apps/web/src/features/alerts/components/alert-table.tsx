import type { AlertView } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { Button, focusRing } from '../../../components/ui/button';
import { Table, Td, Th } from '../../../components/ui/table';
import { AlertBadge } from './alert-badge';
import { causeText } from './alert-text';

interface AlertTableProps {
  alerts: readonly AlertView[];
  /** Null when the reader may not confirm (demo, personal users): no checkboxes, no buttons. */
  selection: { selected: ReadonlySet<string>; toggle: (id: string) => void; toggleAll: (ids: string[]) => void } | null;
  onConfirm: ((alert: AlertView) => void) | null;
  confirmingId: string | null;
  showWearer?: boolean;
}

const needsConfirm = (alert: AlertView) => alert.confirmedAt === null && alert.status === 'OPEN';

/** Alert rows: time, wearer, group, type, level, status, cause, and confirm where allowed. */
export function AlertTable({ alerts, selection, onConfirm, confirmingId, showWearer = true }: AlertTableProps) {
  const { t, i18n } = useTranslation('alerts');
  const when = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'ja', { dateStyle: 'short', timeStyle: 'short' });
  const confirmable = alerts.filter(needsConfirm).map((a) => a.id);
  const allSelected = selection !== null && confirmable.length > 0 && confirmable.every((id) => selection.selected.has(id));

  const statusOf = (alert: AlertView) => {
    if (alert.confirmedAt !== null) return t('status.confirmed', { name: alert.confirmedBy?.name ?? '' });
    return alert.status === 'OPEN' ? t('status.open') : t('status.closed');
  };

  return (
    <Table data-testid="alert-table">
      <caption className="sr-only">{t('table.caption')}</caption>
      <thead>
        <tr>
          {selection !== null && (
            <Th className="w-10">
              <input
                type="checkbox"
                aria-label={t('table.selectAll')}
                data-testid="alert-select-all"
                checked={allSelected}
                disabled={confirmable.length === 0}
                onChange={() => selection.toggleAll(confirmable)}
                className={`size-4 accent-teal-700 ${focusRing}`}
              />
            </Th>
          )}
          <Th>{t('table.time')}</Th>
          {showWearer && <Th>{t('table.wearer')}</Th>}
          {showWearer && <Th>{t('table.group')}</Th>}
          <Th>{t('table.type')}</Th>
          <Th>{t('table.level')}</Th>
          <Th>{t('table.status')}</Th>
          <Th>{t('table.cause')}</Th>
          {onConfirm !== null && <Th>{t('table.action')}</Th>}
        </tr>
      </thead>
      <tbody>
        {alerts.map((alert) => (
          <tr key={alert.id} data-testid="alert-row" data-alert-id={alert.id} data-type={alert.type}>
            {selection !== null && (
              <Td>
                {needsConfirm(alert) && (
                  <input
                    type="checkbox"
                    aria-label={t('table.select', { type: t(`types.${alert.type}`), name: alert.wearer.name })}
                    checked={selection.selected.has(alert.id)}
                    onChange={() => selection.toggle(alert.id)}
                    className={`size-4 accent-teal-700 ${focusRing}`}
                  />
                )}
              </Td>
            )}
            <Td>
              <time dateTime={alert.openedAt} title={new Date(alert.openedAt).toLocaleString(i18n.resolvedLanguage ?? 'ja')}>
                {when.format(new Date(alert.openedAt))}
              </time>
            </Td>
            {showWearer && <Td className="font-medium">{alert.wearer.name}</Td>}
            {showWearer && <Td>{alert.groupName ?? '—'}</Td>}
            <Td>{t(`types.${alert.type}`)}</Td>
            <Td>
              <AlertBadge level={alert.level} />
            </Td>
            <Td data-testid="alert-status">{statusOf(alert)}</Td>
            <Td className="whitespace-normal text-slate-700" data-testid="alert-cause">
              {causeText(t, alert.cause)}
            </Td>
            {onConfirm !== null && (
              <Td>
                {needsConfirm(alert) && (
                  <Button
                    variant="outline"
                    className="min-h-8! px-3 py-0"
                    data-testid="alert-confirm"
                    disabled={confirmingId === alert.id}
                    onClick={() => onConfirm(alert)}
                    aria-label={t('actions.confirmOne', { type: t(`types.${alert.type}`), name: alert.wearer.name })}
                  >
                    {t('actions.confirm')}
                  </Button>
                )}
              </Td>
            )}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
