import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/ui/page-heading';
import { QueryState } from '../../../components/ui/query-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { useMembers } from '../api/members-api';

/** Settings > administrators: the staff of the organisation. */
export function AdminsPage() {
  const { t } = useTranslation();
  const members = useMembers();
  const rows = members.data ?? [];
  const none = t('common.none');
  return (
    <section>
      <PageHeading>{t('pages.settingsAdmins')}</PageHeading>
      <QueryState
        isPending={members.isPending}
        isError={members.isError}
        isEmpty={rows.length === 0}
        labels={{ loading: t('common.loading'), error: t('common.loadFailed'), empty: t('admins.empty'), retry: t('common.retry') }}
        onRetry={() => void members.refetch()}
      >
        <Table data-testid="member-table">
          <caption className="sr-only">{t('pages.settingsAdmins')}</caption>
          <thead>
            <tr>
              <Th>{t('admins.columns.name')}</Th>
              <Th>{t('admins.columns.mail')}</Th>
              <Th>{t('admins.columns.role')}</Th>
              <Th>{t('admins.columns.groups')}</Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((member) => (
              <tr key={member.uid} data-testid="member-row">
                <Td className="font-medium">{member.name}</Td>
                <Td>{member.mail ?? none}</Td>
                <Td>{t(`roles.${member.role}`)}</Td>
                <Td>{member.groups.map((group) => group.name).join(', ') || none}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </QueryState>
    </section>
  );
}
