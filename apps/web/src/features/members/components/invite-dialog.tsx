import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inviteBody, type InviteBody, type Role } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { useInviteMember } from '../api/member-changes';
import { contractErrors, formText, serverFieldErrors } from '../../../lib/form-errors';
import {
  FieldError,
  FormFailure,
  GroupChoice,
  inputClass,
} from '../../../components/ui/form-parts';

interface InviteDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  clientId: string;
  /** Staff roles the signed-in person may grant here. */
  roles: readonly Role[];
  groups: { id: string; name: string }[];
}

const PLATFORM = new Set<Role>(['ALL_OWNER', 'ALL_GENERAL']);

/** Invite a staff member: address, role (one the inviter may grant), groups for a group manager, mail language. */
export function InviteDialog({ open, onOpenChange, clientId, roles, groups }: InviteDialogProps) {
  const { t, i18n } = useTranslation();
  const invite = useInviteMember();
  const [role, setRole] = useState<Role>(
    roles.includes('ORGANIZATION_GENERAL')
      ? 'ORGANIZATION_GENERAL'
      : (roles[0] ?? 'ORGANIZATION_GENERAL'),
  );
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const text = (name: string) => formText(form, name).trim();
    const body: InviteBody = {
      email: text('email'),
      role,
      groupIds: role === 'ORGANIZATION_GROUP' ? groupIds : [],
      locale: text('locale') === 'en' ? 'en' : 'ja',
      ...(PLATFORM.has(role) ? {} : { clientId }),
      ...(text('name') ? { name: text('name') } : {}),
    };
    const checked = contractErrors(inviteBody.safeParse(body));
    setInvalid(checked);
    if (checked.size > 0) return;
    try {
      await invite.mutateAsync(body);
      setSentTo(body.email);
    } catch (error) {
      if (error instanceof ApiError) setInvalid(serverFieldErrors(error.body));
    }
  }

  const close = (next: boolean) => {
    if (!next) {
      setSentTo(null);
      setInvalid(new Set());
      invite.reset();
    }
    onOpenChange(next);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={t('admins.invite.title')}
      description={t('admins.invite.lead')}
      data-testid="invite-dialog"
    >
      {sentTo !== null ? (
        <div className="space-y-4">
          <p
            role="status"
            data-testid="invite-sent"
            className="rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900"
          >
            {t('admins.invite.sent', { email: sentTo })}
          </p>
          <Button variant="modal" onClick={() => close(false)}>
            {t('common.close')}
          </Button>
        </div>
      ) : (
        <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
          <label className="block text-sm font-medium text-slate-700">
            {t('admins.invite.email')}
            <input
              name="email"
              type="email"
              autoComplete="off"
              required
              aria-invalid={invalid.has('email')}
              className={inputClass}
              data-testid="invite-email"
            />
            <FieldError show={invalid.has('email')} id="invite-email-error">
              {t('admins.errors.email')}
            </FieldError>
          </label>
          <label className="block text-sm font-medium text-slate-700">
            {t('admins.invite.name')}
            <input name="name" autoComplete="off" className={inputClass} maxLength={100} />
          </label>
          <label className="block text-sm font-medium text-slate-700">
            {t('admins.columns.role')}
            <select
              value={role}
              onChange={(e) => setRole(e.target.value as Role)}
              className={inputClass}
              data-testid="invite-role"
            >
              {roles.map((r) => (
                <option key={r} value={r}>
                  {t(`roles.${r}`)}
                </option>
              ))}
            </select>
            <FieldError show={invalid.has('role')}>{t('admins.errors.role')}</FieldError>
          </label>
          {role === 'ORGANIZATION_GROUP' && (
            <GroupChoice
              groups={groups}
              selected={groupIds}
              onChange={setGroupIds}
              invalid={invalid.has('groupIds')}
            />
          )}
          <label className="block text-sm font-medium text-slate-700">
            {t('admins.invite.locale')}
            <select
              name="locale"
              defaultValue={i18n.language === 'en' ? 'en' : 'ja'}
              className={inputClass}
            >
              <option value="ja">日本語</option>
              <option value="en">English</option>
            </select>
          </label>
          <FormFailure error={invite.error} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={() => close(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              variant="primary"
              disabled={invite.isPending}
              data-testid="invite-submit"
            >
              {t('admins.invite.submit')}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
