import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useUnlinkDevice } from '../api/unlink-device';
import { removePendingPairing } from '../pending-pairings';
import { refusalText } from './pairing-messages';

/** The unlink/replace modal's data, exactly the specification's "other modal data" (section 3). */
export interface UnlinkModalData {
  clientId: string;
  wearableId: string;
  gatewayId: string | null;
  uid: string;
  name: string;
  groupName: string | null;
}

/**
 * Takes a bracelet off its wearer (what it measured stays theirs; it stays registered for someone else), or
 * replaces it: the pairing modal opens for the same wearer, and pairing the new bracelet ends the old one's turn.
 */
export function UnlinkModal({
  data,
  deviceLabel,
  onClose,
  onReplace,
}: {
  data: UnlinkModalData | null;
  /** The bracelet as the page names it (name and serial number). */
  deviceLabel: string;
  onClose: () => void;
  onReplace: (data: UnlinkModalData) => void;
}) {
  const { t } = useTranslation('wearer');
  const unlink = useUnlinkDevice();
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const confirmUnlink = () => {
    if (!data || unlink.isPending) return;
    unlink.mutate(data.wearableId, {
      onSuccess: () => {
        removePendingPairing(data.uid);
        toast.success(t('unlink.done', { name: data.name }));
        close();
      },
      onError: (error) => setRefusal(refusalText(t, error)),
    });
  };
  return (
    <Dialog
      open={data !== null}
      onOpenChange={(open) => !open && close()}
      title={t('unlink.title')}
      description={data ? t('unlink.lead', { name: data.name, device: deviceLabel }) : undefined}
      data-testid="unlink-modal"
    >
      {data && (
        <div className="grid gap-4">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">{t('unlink.wearer')}</dt>
            <dd className="break-words text-slate-900">{data.name}</dd>
            <dt className="text-slate-600">{t('unlink.group')}</dt>
            <dd className="text-slate-900">{data.groupName ?? t('common.noGroup')}</dd>
            <dt className="text-slate-600">{t('unlink.device')}</dt>
            <dd className="break-all text-slate-900">{deviceLabel}</dd>
          </dl>
          <p className="text-sm text-slate-700">{t('unlink.historyStays', { name: data.name })}</p>
          {refusal !== null && (
            <p
              role="alert"
              data-testid="unlink-error"
              className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800"
            >
              {refusal}
            </p>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button
              type="button"
              variant="secondary"
              data-testid="replace-device"
              onClick={() => onReplace(data)}
            >
              {t('unlink.replace')}
            </Button>
            <Button
              type="button"
              variant="destructive"
              data-testid="unlink-device"
              aria-disabled={unlink.isPending}
              onClick={confirmUnlink}
            >
              {unlink.isPending ? t('unlink.unlinking') : t('unlink.unlink')}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
