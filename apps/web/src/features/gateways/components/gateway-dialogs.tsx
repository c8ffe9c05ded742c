import type { GatewayListItem } from '@wearable/domain';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormFailure } from '../../members/components/member-form-parts';
import { useDeleteGateway } from '../api/delete-gateway';
import { useRotateCredential } from '../api/rotate-credential';
import type { GatewayConnection } from '@wearable/domain';

/** Confirm a rotation: the gateway's current credential stops working and its connection drops at once. */
export function RotateDialog({ gateway, onClose, onRotated }: { gateway: GatewayListItem; onClose: () => void; onRotated: (c: GatewayConnection) => void }) {
  const { t } = useTranslation();
  const rotate = useRotateCredential();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t('gateways.rotate.title', { name: gateway.name })} description={t('gateways.rotate.lead')} data-testid="gateway-rotate-dialog">
      <FormFailure error={rotate.error} />
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="destructive" disabled={rotate.isPending} onClick={() => rotate.mutate(gateway.id, { onSuccess: onRotated })} data-testid="gateway-rotate-confirm">
          {t('gateways.rotate.submit')}
        </Button>
      </div>
    </Dialog>
  );
}

/** Confirm retiring a gateway; says what happens to the bracelets behind it. */
export function DeleteGatewayDialog({ gateway, onClose }: { gateway: GatewayListItem; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteGateway();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t('gateways.remove.title', { name: gateway.name })} description={t('gateways.remove.lead')} data-testid="gateway-delete-dialog">
      <p className="text-sm text-slate-700" data-testid="gateway-delete-bracelets">
        {t('gateways.remove.bracelets', { count: gateway.braceletCount })}
      </p>
      <FormFailure error={remove.error} />
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>{t('common.cancel')}</Button>
        <Button
          variant="destructive"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(gateway.id, {
              onSuccess: (result) => {
                toast.success(t('gateways.remove.done', { name: gateway.name, count: result.unlinkedBracelets }));
                onClose();
              },
            })
          }
          data-testid="gateway-delete-confirm"
        >
          {t('gateways.remove.submit')}
        </Button>
      </div>
    </Dialog>
  );
}
