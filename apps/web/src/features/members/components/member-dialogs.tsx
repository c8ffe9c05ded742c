import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  changeMemberRoleBody,
  type ChangeMemberRoleBody,
  type Member,
  type Role,
} from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { useChangeMemberRole, useRemoveMember } from '../api/member-changes';
import { contractErrors, serverFieldErrors } from '../../../lib/form-errors';
import {
  FieldError,
  FormFailure,
  GroupChoice,
  inputClass,
} from '../../../components/ui/form-parts';

/** Change a staff member's role, and a group manager's groups, within the roles the actor may grant. */
export function RoleDialog(props: {
  member: Member;
  clientId: string;
  roles: readonly Role[];
  groups: { id: string; name: string }[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const change = useChangeMemberRole();
  const [role, setRole] = useState<Role>(props.member.role);
  const [groupIds, setGroupIds] = useState<string[]>(props.member.groups.map((g) => g.id));
  const [invalid, setInvalid] = useState<Set<string>>(new Set());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = {
      uid: props.member.uid,
      clientId: props.clientId,
      role,
      groupIds: role === 'ORGANIZATION_GROUP' ? groupIds : [],
    } as ChangeMemberRoleBody;
    const checked = contractErrors(changeMemberRoleBody.safeParse(body));
    setInvalid(checked);
    if (checked.size > 0) return;
    try {
      await change.mutateAsync(body);
      props.onClose();
    } catch (error) {
      if (error instanceof ApiError) setInvalid(serverFieldErrors(error.body));
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      title={t('admins.role.title', { name: props.member.name })}
      data-testid="role-dialog"
    >
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <label className="block text-sm font-medium text-slate-700">
          {t('admins.columns.role')}
          <select
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            className={inputClass}
            data-testid="role-select"
          >
            {props.roles.map((r) => (
              <option key={r} value={r}>
                {t(`roles.${r}`)}
              </option>
            ))}
          </select>
          <FieldError show={invalid.has('role')}>{t('admins.errors.role')}</FieldError>
        </label>
        {role === 'ORGANIZATION_GROUP' && (
          <GroupChoice
            groups={props.groups}
            selected={groupIds}
            onChange={setGroupIds}
            invalid={invalid.has('groupIds')}
          />
        )}
        <FormFailure error={change.error} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="primary"
            disabled={change.isPending}
            data-testid="role-submit"
          >
            {t('admins.role.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Confirm before removing a person: their sessions end at once; the organisation's records stay. */
export function RemoveDialog(props: { member: Member; clientId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useRemoveMember();
  async function confirm() {
    try {
      await remove.mutateAsync({ uid: props.member.uid, clientId: props.clientId });
      props.onClose();
    } catch {
      // Shown below from remove.error.
    }
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      title={t('admins.remove.title', { name: props.member.name })}
      description={t('admins.remove.lead')}
      data-testid="remove-dialog"
    >
      <FormFailure error={remove.error} />
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={props.onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="destructive"
          disabled={remove.isPending}
          onClick={() => void confirm()}
          data-testid="remove-confirm"
        >
          {t('admins.remove.submit')}
        </Button>
      </div>
    </Dialog>
  );
}
