import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormFailure } from '../../../components/ui/form-parts';
import { useDemoStatus } from '../../../lib/use-demo-status';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { session } from '../../../lib/session';
import { useRemoveDemo } from '../api/organization-changes';

/**
 * A platform owner's "remove the demo" on /organization (issue 35): the demo's accounts have a
 * published password. The same removal as `npm run cli -- demo remove`, after a confirmation; a
 * demo account removing it is signed out, as its account is gone.
 */
export function RemoveDemo({ signedInAsDemo }: { signedInAsDemo: boolean }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const remove = useRemoveDemo();
  const [done, setDone] = useState<{ organizations: number; accounts: number } | null>(null);

  return (
    <>
      <Button variant="destructive" onClick={() => setConfirming(true)} data-testid="remove-demo">
        {t('organizations.demo.remove')}
      </Button>
      <Dialog
        open={confirming}
        onOpenChange={(open) => {
          if (!open) setConfirming(false);
        }}
        title={t('organizations.demo.confirmTitle')}
        description={t('organizations.demo.confirmBody')}
        data-testid="remove-demo-dialog"
      >
        {done ? (
          <RemovedDemo
            removed={done}
            signedInAsDemo={signedInAsDemo}
            close={() => setConfirming(false)}
          />
        ) : (
          <div className="space-y-4">
            {signedInAsDemo && (
              <p className="text-sm text-slate-700">{t('organizations.demo.signsYouOut')}</p>
            )}
            <FormFailure error={remove.error} />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={() => setConfirming(false)}>
                {t('common.cancel')}
              </Button>
              <Button
                variant="destructive"
                disabled={remove.isPending}
                data-testid="remove-demo-confirm"
                onClick={() => void remove.mutateAsync().then(setDone, () => undefined)}
              >
                {t('organizations.demo.confirm')}
              </Button>
            </div>
          </div>
        )}
      </Dialog>
    </>
  );
}

function RemovedDemo({
  removed,
  signedInAsDemo,
  close,
}: {
  removed: { organizations: number; accounts: number };
  signedInAsDemo: boolean;
  close: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The account and its sessions are gone with the demo: nothing to sign out of on the server.
  const leave = () => {
    session.end();
    void navigate(paths.login.build(), { replace: true });
  };
  return (
    <div className="space-y-4">
      <p role="status" data-testid="remove-demo-done" className="text-sm text-teal-900">
        {t('organizations.demo.removed', removed)}
      </p>
      <Button variant="modal" onClick={() => (signedInAsDemo ? leave() : close())}>
        {signedInAsDemo ? t('organizations.demo.signOut') : t('common.close')}
      </Button>
    </div>
  );
}

/** Shown to platform owners while the demo is in the database. */
export function useDemoRemovalOffer(mayRemove: boolean) {
  const status = useDemoStatus(mayRemove);
  return {
    present: mayRemove && status.data?.present === true,
    signedInAsDemo: status.data?.signedInAsDemo === true,
  };
}
