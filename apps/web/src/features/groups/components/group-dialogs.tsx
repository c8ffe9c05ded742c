import { type GroupLiveState, renameGroupBody } from '@wearable/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FieldError, inputClass } from '../../../components/ui/form-parts';
import { useDeleteGroup } from '../api/delete-group';
import { useRenameGroup } from '../api/rename-group';
import { GroupFailure } from './group-failure';

/** The contract's limit (displayName), for the message. */
export const NAME_MAX = 100;

/** Checked with the endpoint's own contract before sending (the rule the server applies), so the form names the problem. */
export function nameProblem(name: string): 'required' | 'tooLong' | null {
  if (renameGroupBody.safeParse({ name }).success) return null;
  return name.trim() === '' ? 'required' : 'tooLong';
}

export function RenameGroupDialog({
  group,
  onClose,
}: {
  group: GroupLiveState;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const rename = useRenameGroup();
  const [name, setName] = useState(group.name);
  const [tried, setTried] = useState(false);
  const problem = nameProblem(name);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('groups.rename.title', { name: group.name })}
      data-testid="group-rename-dialog"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (problem === null)
            rename.mutate({ groupId: group.id, name: name.trim() }, { onSuccess: onClose });
        }}
      >
        <label className="block text-sm font-medium text-slate-700">
          {t('groups.name')}
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            className={inputClass}
            aria-invalid={tried && problem !== null}
            aria-describedby={tried && problem !== null ? 'group-rename-error' : undefined}
            data-testid="group-rename-name"
          />
          <FieldError show={tried && problem !== null} id="group-rename-error">
            {t(`groups.errors.${problem ?? 'required'}`, { max: NAME_MAX })}
          </FieldError>
        </label>
        <GroupFailure error={rename.error} />
        <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="primary"
            disabled={rename.isPending}
            data-testid="group-rename-submit"
          >
            {t('groups.rename.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Confirm before deleting: the server refuses (409) while wearers are in the group, and the dialog says so. */
export function DeleteGroupDialog({
  group,
  onClose,
}: {
  group: GroupLiveState;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteGroup();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('groups.remove.title', { name: group.name })}
      description={t('groups.remove.lead')}
      data-testid="group-delete-dialog"
    >
      <GroupFailure error={remove.error} />
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="destructive"
          disabled={remove.isPending}
          onClick={() => remove.mutate(group.id, { onSuccess: onClose })}
          data-testid="group-delete-confirm"
        >
          {t('groups.remove.submit')}
        </Button>
      </div>
    </Dialog>
  );
}
