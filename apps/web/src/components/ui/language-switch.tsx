import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, isLanguage } from '../../lib/i18n';
import { focusRing } from './button';

/** Japanese / English; i18next stores the choice and updates <html lang>. */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const current = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'ja';
  return (
    <label className={clsx('flex items-center gap-2 text-sm text-slate-600', className)}>
      <span className="sr-only">{t('language.label')}</span>
      <select
        data-testid="language-switch"
        aria-label={t('language.label')}
        value={current}
        onChange={(event) => void i18n.changeLanguage(event.target.value)}
        className={clsx(
          'max-w-24 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm sm:max-w-32',
          focusRing,
        )}
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng}>
            {t(`language.${lng}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
