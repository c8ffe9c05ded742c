import type { AlertView } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import type { AlertTableProps } from './alert-cells';
import { alertSubject } from './alert-text';
import { offersSnooze } from './snooze-dialog';

/**
 * The alert's secondary actions as links, 44 px high: its timeline (経過) and, for a type that may be
 * snoozed, the snooze dialog. The same buttons in the table's time cell and on the phone card.
 */
export function AlertLinkActions({
  alert,
  onTimeline,
  onSnooze,
  layout,
}: Pick<AlertTableProps, 'onTimeline' | 'onSnooze'> & {
  alert: AlertView;
  layout: 'row' | 'card';
}) {
  const { t } = useTranslation('alerts');
  const names = { type: t(`types.${alert.type}`), name: alertSubject(t, alert) };
  const spacing =
    layout === 'row'
      ? { first: 'ml-2 min-h-11', next: 'ml-2 min-h-11' }
      : { first: 'min-h-11 px-0', next: 'ml-4 min-h-11 px-0' };
  return (
    <>
      {onTimeline && (
        <Button
          variant="link"
          className={spacing.first}
          data-testid="alert-timeline-open"
          onClick={() => onTimeline(alert)}
          aria-label={t('timeline.open', names)}
        >
          {t('timeline.openShort')}
        </Button>
      )}
      {onSnooze && offersSnooze(alert) && (
        <Button
          variant="link"
          className={spacing.next}
          data-testid="alert-snooze-open"
          onClick={() => onSnooze(alert)}
          aria-label={t('snooze.open', names)}
        >
          {t('snooze.openShort')}
        </Button>
      )}
    </>
  );
}
