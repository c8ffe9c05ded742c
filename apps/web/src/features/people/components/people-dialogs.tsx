import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { exportPersonData, type FamilyMember, type WearerListItem } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormFailure, inputClass } from '../../../components/ui/form-parts';
import { useIsDemo } from '../../../lib/app-path';
import { downloadFile } from '../../../lib/download-file';
import { useErasePerson, useFamilyLink, useRemoveWearer } from '../api/people-api';

/** Everything held about a wearer as a ZIP (APPI disclosure, docs/privacy.md), saved under the server's name. */
export function ExportPersonButton({
  wearer,
  label,
}: {
  wearer: Pick<WearerListItem, 'uid' | 'name'>;
  /** The button's whole text (one's own records); otherwise 書き出し, named for the wearer. */
  label?: string;
}) {
  const { t } = useTranslation();
  const demo = useIsDemo();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const result = await downloadFile(
      exportPersonData,
      { params: { uid: wearer.uid } },
      demo,
      `person-${wearer.uid}.zip`,
    );
    setBusy(false);
    if (!result.ok) toast.error(t('people.export.failed'));
  };
  return (
    <Button
      variant="outline"
      disabled={busy}
      onClick={() => void run()}
      aria-label={label === undefined ? t('people.export.open', { name: wearer.name }) : undefined}
      data-testid="wearer-export"
    >
      {label ?? t('people.export.button')}
    </Button>
  );
}

/**
 * Confirm before removing a wearer: their readings and alerts stay with the organisation, unless an owner also
 * erases them (APPI deletion, docs/privacy.md): a second, explicit choice, which cannot be undone.
 */
export function RemoveWearerDialog({
  wearer,
  mayErase,
  onClose,
}: {
  wearer: WearerListItem;
  mayErase: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const remove = useRemoveWearer();
  const erase = useErasePerson();
  const [erasing, setErasing] = useState(false);
  const helpId = useId();
  const pending = remove.isPending || erase.isPending;
  const submit = () => {
    if (!erasing) {
      remove.mutate(wearer.uid, { onSuccess: onClose });
      return;
    }
    erase.mutate(wearer.uid, {
      onSuccess: () => {
        toast.success(t('people.erase.done', { name: wearer.name }));
        onClose();
      },
    });
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('people.remove.title', { name: wearer.name })}
      description={erasing ? t('people.erase.lead') : t('people.remove.lead')}
      data-testid="remove-wearer-dialog"
    >
      {mayErase && (
        <div className="mt-2 space-y-2 rounded-md border border-red-200 bg-red-50 p-3">
          <label className="flex items-start gap-2 text-sm font-medium text-red-900">
            <input
              type="checkbox"
              className="mt-1 size-4"
              checked={erasing}
              onChange={(event) => setErasing(event.target.checked)}
              aria-describedby={helpId}
              data-testid="erase-person"
            />
            {t('people.erase.choice')}
          </label>
          <p id={helpId} className="text-sm text-red-900">
            {t('people.erase.help')}
          </p>
        </div>
      )}
      <FormFailure error={erasing ? erase.error : remove.error} />
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="destructive"
          disabled={pending}
          onClick={submit}
          data-testid="remove-wearer-confirm"
        >
          {erasing ? t('people.erase.submit') : t('people.remove.submit')}
        </Button>
      </div>
    </Dialog>
  );
}

/** The wearer's family members: unlink one, or link a family member already known to the organisation. */
export function FamilyDialog({
  wearer,
  families,
  onClose,
}: {
  wearer: WearerListItem;
  families: FamilyMember[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const link = useFamilyLink();
  const linked = families.filter((f) => f.wearers.some((w) => w.uid === wearer.uid));
  const others = families.filter((f) => !linked.includes(f));
  const [chosen, setChosen] = useState(others[0]?.uid ?? '');
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('people.family.title', { name: wearer.name })}
      data-testid="family-dialog"
    >
      <ul className="space-y-2 text-sm">
        {linked.length === 0 && <li className="text-slate-500">{t('people.family.none')}</li>}
        {linked.map((f) => (
          <li key={f.uid} className="flex flex-wrap items-center justify-between gap-2">
            <span className="break-all">
              {f.name}
              {f.email ? ` (${f.email})` : ''}
            </span>
            <Button
              variant="ghost"
              disabled={link.isPending}
              onClick={() => link.mutate({ uid: f.uid, wearerUid: wearer.uid, linked: false })}
              aria-label={t('people.family.unlinkNamed', { name: f.name })}
            >
              {t('people.family.unlink')}
            </Button>
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <form
          className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            if (chosen) link.mutate({ uid: chosen, wearerUid: wearer.uid, linked: true });
          }}
        >
          <label className="block flex-1 text-sm font-medium text-slate-700">
            {t('people.family.choose')}
            <select
              value={chosen}
              onChange={(e) => setChosen(e.target.value)}
              className={inputClass}
              data-testid="family-choose"
            >
              {others.map((f) => (
                <option key={f.uid} value={f.uid}>
                  {f.name}
                </option>
              ))}
            </select>
          </label>
          <Button
            type="submit"
            variant="primary"
            disabled={link.isPending}
            data-testid="family-link"
          >
            {t('people.family.link')}
          </Button>
        </form>
      )}
      <p className="mt-3 text-sm text-slate-600">{t('people.family.inviteHint')}</p>
      <FormFailure error={link.error} />
      <div className="mt-4 flex justify-end">
        <Button variant="outline" onClick={onClose}>
          {t('common.close')}
        </Button>
      </div>
    </Dialog>
  );
}
