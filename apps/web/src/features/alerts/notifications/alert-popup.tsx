import { clsx } from 'clsx';
import { BellRing, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import type { PopupTone } from './notification-rules';

/** The spec's toast time: the popup closes after it unless the pointer or the keyboard is on it. */
export const POPUP_CLOSE_MS = 5_000;

interface AlertPopupProps {
  text: string;
  tone: PopupTone;
  onOpen: () => void;
  onClose: () => void;
}

/**
 * The unconfirmed-alerts popup, drawn as a band under the header (inside the sticky header), so it never covers a
 * confirm button and is reached by Tab right after the header's controls. An emergency is announced assertively
 * (role=alert) and stays until closed; otherwise it is a polite status that closes after 5 s, but never while
 * hovered or while focus is inside it.
 */
export function AlertPopup({ text, tone, onOpen, onClose }: AlertPopupProps) {
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
    'inline-flex min-h-11 items-center justify-center rounded-md px-3 text-sm font-medium',
    focusRing,
    red
      ? 'bg-white text-red-800 hover:bg-red-50 focus-visible:outline-white'
      : 'bg-amber-900 text-white hover:bg-amber-950',
  );
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
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-1.5">
        <BellRing aria-hidden="true" className="size-5 shrink-0" />
        <p className="min-w-0 flex-1 text-sm font-semibold">{text}</p>
        <button type="button" className={buttonClass} onClick={onOpen}>
          {t('notification.open')}
        </button>
        <button
          type="button"
          className={clsx(buttonClass, 'min-w-11 px-2')}
          onClick={onClose}
          aria-label={t('notification.close')}
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>
    </div>
  );
}
