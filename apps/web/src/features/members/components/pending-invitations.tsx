import { useTranslation } from 'react-i18next';
import type { PendingInvitation } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { formatLocalDateTime } from '../../../lib/date-format';
import { useResendInvitation } from '../api/member-changes';
import { FormFailure } from '../../../components/ui/form-parts';

/** Invitations not yet used: who, which role, until when; resend mails a new link (the old one stops working). */
export function PendingInvitations({
  invitations,
  mayResend,
}: {
  invitations: PendingInvitation[];
  mayResend: boolean;
}) {
  const { t, i18n } = useTranslation();
  const resend = useResendInvitation();
  if (invitations.length === 0) return null;
  return (
    <section aria-labelledby="pending-invitations" className="space-y-2">
      <h2 id="pending-invitations" className="text-base font-semibold text-slate-900">
        {t('admins.pending.title')}
      </h2>
      <FormFailure error={resend.error} />
      {resend.isSuccess && (
        <p role="status" className="text-sm text-teal-800">
          {t('admins.pending.resent')}
        </p>
      )}
      <ul
        className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
        data-testid="pending-invitations"
      >
        {invitations.map((invitation) => (
          <li
            key={invitation.id}
            className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm"
            data-testid="pending-invitation"
          >
            <div className="min-w-0">
              <p className="font-medium break-all">{invitation.email}</p>
              <p className="text-slate-600">
                {t(`roles.${invitation.role}`)}
                {invitation.groups.length > 0 &&
                  ` · ${invitation.groups.map((g) => g.name).join(', ')}`}
                {' · '}
                {invitation.expired
                  ? t('admins.pending.expired')
                  : t('admins.pending.until', {
                      date: formatLocalDateTime(invitation.expiresAt, i18n.language),
                    })}
              </p>
            </div>
            {mayResend && (
              <Button
                variant="outline"
                disabled={resend.isPending}
                onClick={() => resend.mutate(invitation.id)}
                aria-label={t('admins.pending.resendFor', { email: invitation.email })}
                data-testid="invitation-resend"
              >
                {t('admins.pending.resend')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
