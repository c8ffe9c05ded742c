import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FamilyMember, WearerListItem } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormFailure, inputClass } from '../../../components/ui/form-parts';
import { useFamilyLink, useRemoveWearer } from '../api/people-api';

/** Confirm before removing a wearer: their readings and alerts stay with the organisation. */
export function RemoveWearerDialog({
  wearer,
  onClose,
}: {
  wearer: WearerListItem;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const remove = useRemoveWearer();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('people.remove.title', { name: wearer.name })}
      description={t('people.remove.lead')}
      data-testid="remove-wearer-dialog"
    >
      <FormFailure error={remove.error} />
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="destructive"
          disabled={remove.isPending}
          onClick={() => remove.mutate(wearer.uid, { onSuccess: onClose })}
          data-testid="remove-wearer-confirm"
        >
          {t('people.remove.submit')}
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
