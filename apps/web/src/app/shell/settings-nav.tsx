import type { Role } from '@wearable/domain';
import { clsx } from 'clsx';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../components/ui/button';
import { routeOf } from '../../config/paths';
import { AppNavLink } from '../../lib/app-path';
import { stripDemoPrefix } from '../../lib/demo';
import { settingsEntries } from '../menu';

/** Links between the settings pages (admins, groups, gateways, audit log), above each of them. */
export function SettingsNav({ role }: { role: Role }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const entries = settingsEntries(role, routeOf(stripDemoPrefix(pathname)));
  if (entries.length === 0) return null;
  return (
    <nav
      aria-label={t('settingsNav.label')}
      className="mb-6 border-b border-slate-200"
      data-testid="settings-nav"
    >
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {entries.map((entry) => (
          <li key={entry.to}>
            <AppNavLink
              to={entry.to}
              end
              className={({ isActive }) =>
                clsx(
                  'inline-flex min-h-11 items-center border-b-2 px-3 text-sm font-medium',
                  focusRing,
                  isActive
                    ? 'border-teal-700 text-teal-800'
                    : 'border-transparent text-slate-700 hover:text-slate-900',
                )
              }
            >
              {t(entry.labelKey)}
            </AppNavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
