import { Check, ChevronDown, Circle, IdCard, LogOut, MonitorUp, UserRound } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../components/ui/button';
import { PersonName } from '../../components/ui/person-name';
import { paths } from '../../config/paths';
import { AppLink } from '../../lib/app-path';
import { THEME_CHOICES, isThemeChoice, useTheme } from '../../lib/theme';

/** A highlighted (keyboard-focused) item shows the same ring as every control: a grey fill alone was 1.1:1. */
const itemClass =
  'flex min-h-11 cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-800 outline-none ' +
  'data-[highlighted]:bg-slate-100 data-[highlighted]:outline-2 data-[highlighted]:-outline-offset-2 data-[highlighted]:outline-teal-700';

interface UserMenuProps {
  name: string;
  onLogout: () => void;
  /** Staff outside the demo: this browser's wall-monitor setting (screen kept awake, new alerts full screen). */
  wallMonitor?: { on: boolean; set: (on: boolean) => void };
}

export function UserMenu({ name, onLogout, wallMonitor }: UserMenuProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        data-testid="user-menu"
        className={`flex max-w-28 items-center gap-1 sm:max-w-48 rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100 ${focusRing}`}
      >
        <UserRound aria-hidden="true" className="size-4 shrink-0" />
        {/* The accessible name starts with the visible name (WCAG 2.5.3); "user menu" follows for screen readers. */}
        <PersonName name={name} className="truncate" />
        <span className="sr-only">{t('userMenu.label')}</span>
        <ChevronDown aria-hidden="true" className="size-4 shrink-0" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs text-slate-600">
            <PersonName name={name} />
          </DropdownMenu.Label>
          {/* Every role's own page (two-step sign-in lives there); the personal menu also lists it. */}
          <DropdownMenu.Item asChild>
            <AppLink
              to={paths.user.info.build()}
              data-testid="user-info-link"
              className={itemClass}
            >
              <IdCard aria-hidden="true" className="size-4" />
              {t('userMenu.userInfo')}
            </AppLink>
          </DropdownMenu.Item>
          {wallMonitor && (
            <DropdownMenu.CheckboxItem
              data-testid="wall-monitor-toggle"
              checked={wallMonitor.on}
              onCheckedChange={wallMonitor.set}
              className={itemClass}
            >
              <MonitorUp aria-hidden="true" className="size-4" />
              {t('userMenu.wallMonitor')}
              <DropdownMenu.ItemIndicator className="ml-auto">
                <Check aria-hidden="true" className="size-4" />
              </DropdownMenu.ItemIndicator>
            </DropdownMenu.CheckboxItem>
          )}
          {/* This browser's colours, beside the language switch: a night shift dims the screen from here. */}
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
          <DropdownMenu.Label id="theme-menu-label" className="px-2 py-1 text-xs text-slate-600">
            {t('theme.label')}
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            aria-labelledby="theme-menu-label"
            data-testid="theme-menu"
            value={theme.choice}
            onValueChange={(value) => {
              if (isThemeChoice(value)) theme.choose(value);
            }}
          >
            {THEME_CHOICES.map((choice) => (
              <DropdownMenu.RadioItem
                key={choice}
                value={choice}
                data-testid={`theme-${choice}`}
                onSelect={(event) => event.preventDefault()}
                className={itemClass}
              >
                <span className="flex size-4 items-center justify-center" aria-hidden="true">
                  <DropdownMenu.ItemIndicator>
                    <Circle className="size-2.5 fill-current" />
                  </DropdownMenu.ItemIndicator>
                </span>
                {t(`theme.${choice}`)}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
          <DropdownMenu.Item data-testid="logout" onSelect={onLogout} className={itemClass}>
            <LogOut aria-hidden="true" className="size-4" />
            {t('userMenu.logout')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
