import { type GatewayListItem, updateGatewayBody } from '@wearable/domain';
import { useState } from 'react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useGroups } from '../../../lib/use-groups';
import { contractErrors, formText } from '../../../lib/form-errors';
import { FieldError, FormFailure, inputClass } from '../../../components/ui/form-parts';
import { useDeleteGateway } from '../api/delete-gateway';
import { useRotateCredential } from '../api/rotate-credential';
import { useUpdateGateway } from '../api/update-gateway';
import type { GatewayConnection } from '@wearable/domain';

/** Confirm a rotation: the gateway's current credential stops working and its connection drops at once. */
export function RotateDialog({
  gateway,
  onClose,
  onRotated,
}: {
  gateway: GatewayListItem;
  onClose: () => void;
  onRotated: (c: GatewayConnection) => void;
}) {
  const { t } = useTranslation();
  const rotate = useRotateCredential();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('gateways.rotate.title', { name: gateway.name })}
      description={t('gateways.rotate.lead')}
      data-testid="gateway-rotate-dialog"
    >
      <FormFailure error={rotate.error} />
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="destructive"
          disabled={rotate.isPending}
          onClick={() => rotate.mutate(gateway.id, { onSuccess: onRotated })}
          data-testid="gateway-rotate-confirm"
        >
          {t('gateways.rotate.submit')}
        </Button>
      </div>
    </Dialog>
  );
}

/** Confirm retiring a gateway; says what happens to the bracelets behind it. */
export function DeleteGatewayDialog({
  gateway,
  onClose,
}: {
  gateway: GatewayListItem;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteGateway();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('gateways.remove.title', { name: gateway.name })}
      description={t('gateways.remove.lead')}
      data-testid="gateway-delete-dialog"
    >
      <p className="text-sm text-slate-700" data-testid="gateway-delete-bracelets">
        {t('gateways.remove.bracelets', { count: gateway.braceletCount })}
      </p>
      <FormFailure error={remove.error} />
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="destructive"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(gateway.id, {
              onSuccess: (result) => {
                toast.success(
                  t('gateways.remove.done', {
                    name: gateway.name,
                    count: result.unlinkedBracelets,
                  }),
                );
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

/** Rename a gateway or move it to another group of the organisation (or none). Sends only what changed. */
export function EditGatewayDialog({
  clientId,
  gateway,
  onClose,
}: {
  clientId: string;
  gateway: GatewayListItem;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateGateway();
  const groups = useGroups(clientId);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('gateways.edit.title', { name: gateway.name })}
      data-testid="gateway-edit-dialog"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const name = formText(form, 'name').trim();
          const groupId = formText(form, 'groupId');
          const body = {
            ...(name !== gateway.name ? { name } : {}),
            ...(groupId !== (gateway.groupId ?? '')
              ? { groupId: groupId === '' ? null : groupId }
              : {}),
          };
          if (Object.keys(body).length === 0) {
            onClose();
            return;
          }
          // Checked with the endpoint's own contract first, so the form names the field.
          const parsed = updateGatewayBody.safeParse(body);
          setInvalid(contractErrors(parsed));
          if (!parsed.success) return;
          update.mutate(
            { gatewayId: gateway.id, body: parsed.data },
            {
              onSuccess: (saved) => {
                toast.success(t('gateways.edit.done', { name: saved.name }));
                onClose();
              },
            },
          );
        }}
      >
        <div className="mt-2 grid gap-3">
          <label className="block text-sm font-medium text-slate-700">
            {t('gateways.register.name')}
            <input
              name="name"
              defaultValue={gateway.name}
              autoComplete="off"
              className={inputClass}
              aria-invalid={invalid.has('name')}
              aria-describedby={invalid.has('name') ? 'gateway-edit-name-error' : undefined}
              data-testid="gateway-edit-name"
            />
            <FieldError show={invalid.has('name')} id="gateway-edit-name-error">
              {t('gateways.register.errors.name')}
            </FieldError>
          </label>
          <label className="block text-sm font-medium text-slate-700">
            {t('gateways.register.group')}
            <select
              name="groupId"
              defaultValue={gateway.groupId ?? ''}
              className={inputClass}
              data-testid="gateway-edit-group"
            >
              <option value="">{t('gateways.noGroup')}</option>
              {(groups.data ?? []).map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
        </div>
        <FormFailure error={update.error} />
        <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="primary"
            disabled={update.isPending}
            data-testid="gateway-edit-submit"
          >
            {t('gateways.edit.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
