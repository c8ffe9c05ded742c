import type { AlertView } from '@wearable/domain';
import { clsx } from 'clsx';
import { BellOff, BellRing } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { useMediaQuery } from '../../../lib/use-media-query';
import { alertSubject, alertTypeLabel } from '../components/alert-text';

/**
 * How many ringing alerts are listed with their own buttons (the rest are counted, and come up as these are
 * confirmed or muted): one on a phone, where the sticky header must leave room for the page.
 */
const SHOWN = { wide: 3, narrow: 1 };

interface RingingAlertsProps {
  ringing: readonly AlertView[];
  onConfirm: (alert: AlertView) => void;
  onMute: (alert: AlertView) => void;
}

/**
 * A band of the header while an EMERGENCY's tone repeats: each ringing alert with "確認する" (the confirm dialog)
 * and "このアラートの音を止める" (this tab only; the alert stays unconfirmed and listed everywhere).
 */
export function RingingAlerts({ ringing, onConfirm, onMute }: RingingAlertsProps) {
  const { t } = useTranslation('alerts');
  const shown = useMediaQuery('(min-width: 640px)') ? SHOWN.wide : SHOWN.narrow;
  if (ringing.length === 0) return null;
  const button = clsx(
    'inline-flex min-h-11 items-center gap-1 rounded-md px-3 text-sm font-medium',
    focusRing,
    'focus-visible:outline-white',
  );
  const nameOf = (a: AlertView) => ({ name: alertSubject(t, a), type: alertTypeLabel(t, a) });
  return (
    <section
      data-testid="ringing-alerts"
      aria-labelledby="ringing-alerts-title"
      className="border-t border-red-950 bg-red-900 text-white"
    >
      <div className="mx-auto max-w-6xl px-4 py-1.5">
        <h2 id="ringing-alerts-title" className="flex items-center gap-2 text-sm font-semibold">
          <BellRing aria-hidden="true" className="size-5 shrink-0" />
          {t('attention.ringing')}
        </h2>
        <ul className="mt-1 space-y-1">
          {ringing.slice(0, shown).map((a) => (
            <li
              key={a.id}
              data-testid="ringing-alert"
              className="flex flex-wrap items-center gap-x-3 gap-y-1"
            >
              {/* The whole width on a phone, the buttons under it: never a column of one character a line. */}
              <span className="w-full min-w-0 text-sm sm:w-auto sm:flex-1">
                {t('attention.ringingItem', nameOf(a))}
              </span>
              <button
                type="button"
                data-testid="ringing-confirm"
                aria-label={t('attention.confirmNamed', nameOf(a))}
                onClick={() => onConfirm(a)}
                className={clsx(button, 'bg-white text-red-900 hover:bg-red-50')}
              >
                {t('attention.confirm')}
              </button>
              <button
                type="button"
                data-testid="ringing-mute"
                aria-label={t('attention.muteNamed', nameOf(a))}
                onClick={() => onMute(a)}
                className={clsx(button, 'border border-white hover:bg-red-950')}
              >
                <BellOff aria-hidden="true" className="size-4 shrink-0" />
                {t('attention.mute')}
              </button>
            </li>
          ))}
        </ul>
        {ringing.length > shown && (
          <p className="mt-1 text-sm">{t('attention.more', { count: ringing.length - shown })}</p>
        )}
      </div>
    </section>
  );
}
