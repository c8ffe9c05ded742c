import type { Role } from '@wearable/domain';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../components/ui/button';
import { AppNavLink } from '../../lib/app-path';
import { menuEntries } from '../menu';

interface MainMenuProps {
  role: Role;
  /** Drawer: links stacked; header: links in a row. */
  layout: 'row' | 'column';
  onNavigate?: () => void;
  /** The organisation's setup checklist is not finished: it leads the menu. */
  setupPending?: boolean;
}

export function MainMenu({ role, layout, onNavigate, setupPending = false }: MainMenuProps) {
  const { t } = useTranslation();
  return (
    <nav data-testid="main-menu" aria-label={t('menu.label')}>
      <ul
        className={clsx('flex gap-1', layout === 'column' ? 'flex-col' : 'flex-row items-center')}
      >
        {menuEntries(role, { setupPending }).map((entry) => (
          <li key={entry.to}>
            <AppNavLink
              to={entry.to}
              onClick={onNavigate}
              className={({ isActive }) =>
                clsx(
                  'block rounded-md py-2 text-sm font-medium',
                  layout === 'row' ? 'px-2.5 whitespace-nowrap' : 'px-3',
                  focusRing,
                  isActive ? 'bg-teal-50 text-teal-800' : 'text-slate-700 hover:bg-slate-100',
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
