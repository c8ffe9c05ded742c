import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  grantableRoles,
  type Member,
  MEMBERS_PAGE_SIZE,
  type Role,
  type UserInfo,
} from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { QueryState } from '../../../components/ui/query-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { useCan } from '../../../lib/use-can';
import { useMembers, useOrganizationGroups } from '../api/get-members';
import { InviteDialog } from './invite-dialog';
import { RemoveDialog, RoleDialog } from './member-dialogs';
import { PendingInvitations } from './pending-invitations';
import { inputClass } from '../../../components/ui/form-parts';

/** Staff roles this page gives; family members are invited from /members. */
const STAFF_ROLES: readonly Role[] = [
  'ORGANIZATION_OWNER',
  'ORGANIZATION_GENERAL',
  'ORGANIZATION_GROUP',
  'ALL_OWNER',
  'ALL_GENERAL',
];

/**
 * Settings > administrators for one organisation: its staff (searchable, a page at a time) and pending
 * invitations; invite, resend, change a role or a group manager's groups, remove. Buttons show only for what
 * the signed-in person may do; the server decides anyway.
 */
export function AdminsPanel({
  clientId,
  user,
}: {
  clientId: string;
  user: Pick<UserInfo, 'role' | 'uid'>;
}) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const members = useMembers({ clientId, q, page });
  const groups = useOrganizationGroups(clientId).data ?? [];
  const organization = { organizationId: clientId };
  const mayInvite = useCan('member:invite', organization);
  const mayChange = useCan('member:changeRole', organization);
  const granted = grantableRoles({ role: user.role });
  const inviteRoles = STAFF_ROLES.filter((r) => granted.includes(r));
  // Inviting into a customer organisation (and changing a role in it) offers only its own roles:
  // platform staff belong to no organisation (issue 35).
  const orgRoles = inviteRoles.filter((r) => r.startsWith('ORGANIZATION_'));
  const mayManage = (m: Member) => mayChange && granted.includes(m.role);
  const data = members.data;
  const rows = data?.members ?? [];
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / (data?.pageSize ?? MEMBERS_PAGE_SIZE)));
  const none = t('common.none');

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <label className="block w-full text-sm font-medium text-slate-700 sm:w-72">
          {t('admins.search')}
          <input
            type="search"
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setPage(1);
            }}
            className={inputClass}
            data-testid="member-search"
          />
        </label>
        {mayInvite && inviteRoles.length > 0 && (
          <Button variant="primary" onClick={() => setInviting(true)} data-testid="invite-open">
            {t('admins.invite.open')}
          </Button>
        )}
      </div>
      <QueryState
        isPending={members.isPending}
        isError={members.isError}
        isEmpty={rows.length === 0 && (data?.invitations.length ?? 0) === 0}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: t('admins.empty'),
          retry: t('common.retry'),
        }}
        onRetry={() => void members.refetch()}
      >
        <Table data-testid="member-table" label={t('pages.settingsAdmins')}>
          <caption className="sr-only">{t('pages.settingsAdmins')}</caption>
          <thead>
            <tr>
              <Th>{t('admins.columns.name')}</Th>
              <Th>{t('admins.columns.mail')}</Th>
              <Th>{t('admins.columns.role')}</Th>
              <Th>{t('admins.columns.groups')}</Th>
              <Th>
                <span className="sr-only">{t('admins.columns.actions')}</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((member) => (
              <tr key={member.uid} data-testid="member-row">
                <Td className="font-medium">{member.name}</Td>
                <Td className="break-all">{member.mail ?? none}</Td>
                <Td>{t(`roles.${member.role}`)}</Td>
                <Td>{member.groups.map((group) => group.name).join(', ') || none}</Td>
                <Td>
                  {mayManage(member) && (
                    <div className="flex flex-wrap gap-2">
                      <Button
                        variant="outline"
                        onClick={() => setEditing(member)}
                        aria-label={t('admins.role.open', { name: member.name })}
                        data-testid="role-open"
                      >
                        {t('admins.role.button')}
                      </Button>
                      <Button
                        variant="ghost"
                        onClick={() => setRemoving(member)}
                        aria-label={t('admins.remove.open', { name: member.name })}
                        data-testid="remove-open"
                      >
                        {t('admins.remove.button')}
                      </Button>
                    </div>
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {pages > 1 && (
          <nav
            className="flex items-center justify-center gap-3 text-sm"
            aria-label={t('admins.pages')}
          >
            <Button variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t('admins.previous')}
            </Button>
            <span aria-live="polite">{t('admins.pageOf', { page, pages })}</span>
            <Button variant="outline" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              {t('admins.next')}
            </Button>
          </nav>
        )}
        <PendingInvitations invitations={data?.invitations ?? []} mayResend={mayInvite} />
      </QueryState>
      {inviting && (
        <InviteDialog
          open
          onOpenChange={setInviting}
          clientId={clientId}
          roles={orgRoles}
          groups={groups}
        />
      )}
      {editing && (
        <RoleDialog
          member={editing}
          clientId={clientId}
          roles={orgRoles}
          groups={groups}
          onClose={() => setEditing(null)}
        />
      )}
      {removing && (
        <RemoveDialog member={removing} clientId={clientId} onClose={() => setRemoving(null)} />
      )}
    </div>
  );
}
