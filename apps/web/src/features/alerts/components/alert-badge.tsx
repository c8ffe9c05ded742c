import { alertColour, type AlertLevel, type AlertType } from '@wearable/domain';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';

/** Caution amber, every other level red (spec section 9); the words carry the meaning, not the colour. */
export function AlertBadge({ type, level }: { type?: AlertType; level: AlertLevel }) {
  const { t } = useTranslation('alerts');
  const colour = alertColour(level);
  return (
    <span
      data-testid="alert-badge"
      data-colour={colour}
      data-level={level}
      className={clsx(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        colour === 'amber'
          ? 'bg-amber-50 text-amber-900 ring-amber-300'
          : 'bg-red-50 text-red-800 ring-red-300',
      )}
    >
      {type === undefined ? t(`levels.${level}`) : `${t(`types.${type}`)}`}
      {type !== undefined && <span className="sr-only">{` (${t(`levels.${level}`)})`}</span>}
    </span>
  );
}
