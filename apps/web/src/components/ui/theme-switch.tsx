import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { THEME_CHOICES, isThemeChoice, useTheme } from '../../lib/theme';
import { focusRing } from './button';

/** System / light / dark for this browser, as a labelled select (the registration-info page). */
export function ThemeSwitch({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { choice, choose } = useTheme();
  return (
    <label className={clsx('flex flex-wrap items-center gap-2 text-sm text-slate-700', className)}>
      {t('theme.label')}
      <select
        data-testid="theme-switch"
        value={choice}
        onChange={(event) => {
          if (isThemeChoice(event.target.value)) choose(event.target.value);
        }}
        className={clsx(
          'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900',
          focusRing,
        )}
      >
        {THEME_CHOICES.map((option) => (
          <option key={option} value={option}>
            {t(`theme.${option}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
