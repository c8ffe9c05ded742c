import type { Role } from '@wearable/domain';
import { Menu, X } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { MainMenu } from './main-menu';

/** Small screens: the same main menu in a drawer from the left. */
export function MenuDrawer({ role, setupPending }: { role: Role; setupPending: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <RadixDialog.Root open={open} onOpenChange={setOpen}>
      <RadixDialog.Trigger asChild>
        <Button
          variant="ghost"
          className="px-2"
          data-testid="menu-button"
          aria-label={t('menu.open')}
        >
          <Menu aria-hidden="true" className="size-5" />
        </Button>
      </RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <RadixDialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col gap-4 bg-white p-4 shadow-xl focus:outline-none"
        >
          <div className="flex items-center justify-between">
            <RadixDialog.Title className="text-base font-semibold">
              {t('menu.title')}
            </RadixDialog.Title>
            <RadixDialog.Close asChild>
              <Button variant="ghost" className="px-2" aria-label={t('menu.close')}>
                <X aria-hidden="true" className="size-5" />
              </Button>
            </RadixDialog.Close>
          </div>
          <MainMenu
            role={role}
            layout="column"
            setupPending={setupPending}
            onNavigate={() => setOpen(false)}
          />
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
