import { useTranslation } from 'react-i18next';
import { Button, focusRing } from '../../../components/ui/button';
import { PersonName } from '../../../components/ui/person-name';
import { Table, Td, Th } from '../../../components/ui/table';
import { useMediaQuery } from '../../../lib/use-media-query';
import { AlertBadge } from './alert-badge';
import { AlertCards } from './alert-cards';
import { needsConfirm, selectionState, useAlertCells, type AlertTableProps } from './alert-cells';
import { AlertLinkActions } from './alert-link-actions';
import { alertSubject, alertTypeLabel, causeText, placeLabel } from './alert-text';

/** The 確認 column stays at the table's right edge while the rest scrolls: never cut off (issue 36). */
const STICKY_END = 'sticky right-0 z-[1] shadow-[-1px_0_0_0_var(--color-slate-200)]';

/** Alerts: a table on wide screens, cards on phones (no sideways scrolling to reach the confirm button). */
export function AlertTable(props: AlertTableProps) {
  const wide = useMediaQuery('(min-width: 768px)');
  return wide ? <AlertRows {...props} /> : <AlertCards {...props} />;
}

/** Alert rows: time, wearer, group, type, level, status, cause, and confirm where allowed. */
function AlertRows({
  alerts,
  selection,
  onConfirm,
  onTimeline,
  onSnooze,
  statusNote,
  confirmingIds,
  showWearer = true,
}: AlertTableProps) {
  const { t } = useTranslation('alerts');
  const cells = useAlertCells();
  const { confirmable, allSelected } = selectionState(alerts, selection);

  return (
    <Table data-testid="alert-table" label={t('table.caption')}>
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
          <Th>{t('place.column')}</Th>
          {onConfirm !== null && <Th className={STICKY_END}>{t('table.action')}</Th>}
        </tr>
      </thead>
      <tbody>
        {alerts.map((alert) => (
          <tr
            key={alert.id}
            data-testid="alert-row"
            data-alert-id={alert.id}
            data-type={alert.type}
          >
            {selection !== null && (
              <Td>
                {needsConfirm(alert) && (
                  <input
                    type="checkbox"
                    aria-label={t('table.select', {
                      type: t(`types.${alert.type}`),
                      name: alertSubject(t, alert),
                    })}
                    checked={selection.selected.has(alert.id)}
                    onChange={() => selection.toggle(alert.id)}
                    className={`size-4 accent-teal-700 ${focusRing}`}
                  />
                )}
              </Td>
            )}
            {/* The time over its 経過 link: the row keeps its 確認 button inside 1,280 px (issue 36). */}
            <Td className="min-w-36 whitespace-normal">
              <div className="flex flex-wrap items-center">
                <span className="whitespace-nowrap">{cells.time(alert)}</span>
                <AlertLinkActions
                  alert={alert}
                  onTimeline={onTimeline}
                  onSnooze={onSnooze}
                  layout="row"
                />
              </div>
            </Td>
            {showWearer && (
              <Td className="font-medium">
                <PersonName name={alertSubject(t, alert)} />
              </Td>
            )}
            {showWearer && <Td>{alert.groupName ?? '—'}</Td>}
            <Td>{alertTypeLabel(t, alert)}</Td>
            <Td>
              <AlertBadge level={alert.level} />
            </Td>
            <Td data-testid="alert-status" tabIndex={-1} className="whitespace-normal">
              {cells.status(alert)}
              {statusNote?.(alert)}
            </Td>
            <Td className="min-w-48 whitespace-normal text-slate-700" data-testid="alert-cause">
              {causeText(t, alert.cause)}
            </Td>
            <Td className="min-w-32 whitespace-normal text-slate-900" data-testid="alert-place">
              {placeLabel(t, alert.place) ?? (
                <>
                  <span aria-hidden="true">—</span>
                  <span className="sr-only">{t('place.notRecorded')}</span>
                </>
              )}
            </Td>
            {onConfirm !== null && (
              <Td className={`${STICKY_END} bg-white`}>
                {needsConfirm(alert) && (
                  <Button
                    variant="outline"
                    className="px-3"
                    data-testid="alert-confirm"
                    disabled={confirmingIds.has(alert.id)}
                    onClick={() => onConfirm(alert)}
                    aria-label={t('actions.confirmOne', {
                      type: t(`types.${alert.type}`),
                      name: alertSubject(t, alert),
                    })}
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
