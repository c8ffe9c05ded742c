import type { AlertView } from '@wearable/domain';
import { formatTime } from '@wearable/domain';
import { clsx } from 'clsx';
import { BellRing, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { alertSubject, alertTypeLabel, placeLabel } from '../components/alert-text';
import type { PopupTone } from './notification-rules';

/** The spec's toast time: the popup closes after it unless the pointer or the keyboard is on it. */
export const POPUP_CLOSE_MS = 5_000;
/** Besides the headline, at most this many more alerts are listed (the rest: the alert history). */
export const POPUP_MORE = 3;

interface AlertPopupProps {
  /** "2件のアラートがあります". */
  text: string;
  tone: PopupTone;
  /** The alert the banner offers 確認 / 詳細 for (the newest emergency, else critical, else newest). */
  headline: AlertView | null;
  /** Other unconfirmed alerts, newest first: a compact list with a 確認 each. */
  others: readonly AlertView[];
  onConfirm: (alert: AlertView) => void;
  onDetail: (alert: AlertView) => void;
  /** The whole alert history. */
  onOpen: () => void;
  onClose: () => void;
}

/**
 * The unconfirmed-alerts banner, drawn under the header (inside the sticky header), so it never covers a confirm
 * button and is reached by Tab right after the header's controls. It names the newest urgent alert (who, what,
 * when, where) with 確認 (the confirm dialog for it: two taps from banner to confirmed) and 詳細 (the wearer's
 * page), and lists a few others compactly. Text and buttons stack on a phone, so the text keeps the full width
 * instead of wrapping into narrow lines beside the buttons (issue 36). An emergency is announced assertively
 * (role=alert) and stays until closed; otherwise it is a polite status that closes after 5 s, but never while
 * hovered or while focus is inside it.
 */
export function AlertPopup({
  text,
  tone,
  headline,
  others,
  onConfirm,
  onDetail,
  onOpen,
  onClose,
}: AlertPopupProps) {
  const { t } = useTranslation('alerts');
  const [held, setHeld] = useState({ hover: false, focus: false });
  const kept = tone.urgent || held.hover || held.focus;

  useEffect(() => {
    if (kept) return;
    const timer = window.setTimeout(onClose, POPUP_CLOSE_MS);
    return () => window.clearTimeout(timer);
  }, [kept, onClose, text]);

  const red = tone.colour === 'red';
  const buttonClass = clsx(
    'inline-flex min-h-11 min-w-11 items-center justify-center rounded-md px-4 text-sm font-semibold',
    focusRing,
    red
      ? 'bg-white text-red-800 hover:bg-red-50 focus-visible:outline-white'
      : 'bg-amber-900 text-white hover:bg-amber-950',
  );
  const quietClass = clsx(
    'inline-flex min-h-11 items-center justify-center rounded-md px-3 text-sm font-medium underline-offset-2 hover:underline',
    focusRing,
    red ? 'text-white focus-visible:outline-white' : 'text-amber-950',
  );
  const tr = (key: string, opts?: Record<string, unknown>) => t(key, opts);
  const line = (alert: AlertView) =>
    [alertSubject(tr, alert), alertTypeLabel(tr, alert), formatTime(alert.openedAt)]
      .filter(Boolean)
      .join(' · ');
  const more = others.slice(0, POPUP_MORE);
  return (
    <div
      role={tone.urgent ? 'alert' : 'status'}
      aria-live={tone.urgent ? 'assertive' : 'polite'}
      data-testid="alert-popup"
      data-colour={tone.colour}
      onMouseEnter={() => setHeld((h) => ({ ...h, hover: true }))}
      onMouseLeave={() => setHeld((h) => ({ ...h, hover: false }))}
      onFocus={() => setHeld((h) => ({ ...h, focus: true }))}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget))
          setHeld((h) => ({ ...h, focus: false }));
      }}
      className={clsx(
        'border-t',
        red
          ? 'border-red-900 bg-red-700 text-white'
          : 'border-amber-300 bg-amber-100 text-amber-950',
      )}
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-1.5">
        <div className="flex items-center gap-2">
          <BellRing aria-hidden="true" className="size-5 shrink-0" />
          <p className="min-w-0 flex-1 text-sm font-semibold">{text}</p>
          <button type="button" className={quietClass} onClick={onOpen}>
            {t('notification.open')}
          </button>
          <button
            type="button"
            className={clsx(quietClass, 'min-w-11 px-2')}
            onClick={onClose}
            aria-label={t('notification.close')}
          >
            <X aria-hidden="true" className="size-5" />
          </button>
        </div>
        {headline !== null && (
          <div
            data-testid="alert-popup-headline"
            className="flex flex-col gap-2 pb-1 sm:flex-row sm:items-center"
          >
            <p className="min-w-0 flex-1 text-base font-semibold">
              {line(headline)}
              {headline.place && (
                <span className="block text-sm font-normal">{placeLabel(tr, headline.place)}</span>
              )}
            </p>
            <div className="flex gap-2">
              <button
                type="button"
                data-testid="alert-popup-confirm"
                className={clsx(buttonClass, 'flex-1 sm:flex-none')}
                onClick={() => onConfirm(headline)}
                aria-label={t('notification.confirmOf', { name: alertSubject(tr, headline) })}
              >
                {t('notification.confirm')}
              </button>
              <button
                type="button"
                data-testid="alert-popup-detail"
                className={clsx(
                  buttonClass,
                  'flex-1 sm:flex-none',
                  red ? 'bg-red-800! text-white! ring-1 ring-white' : 'bg-white! text-amber-950!',
                )}
                onClick={() => onDetail(headline)}
                aria-label={t('notification.detailOf', { name: alertSubject(tr, headline) })}
              >
                {t('notification.detail')}
              </button>
            </div>
          </div>
        )}
        {more.length > 0 && (
          <ul data-testid="alert-popup-more" className="flex flex-col border-t border-current/30">
            {more.map((alert) => (
              <li key={alert.id} className="flex items-center gap-2 text-sm">
                <span className="min-w-0 flex-1 truncate">{line(alert)}</span>
                <button
                  type="button"
                  className={quietClass}
                  onClick={() => onConfirm(alert)}
                  aria-label={t('notification.confirmOf', { name: alertSubject(tr, alert) })}
                >
                  {t('notification.confirm')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
