import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { userLookupQuery } from '@wearable/domain';
import { Button, focusRing } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { QueryState } from '../../../components/ui/query-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { USERS_PAGE_SIZE, useLookupUsers } from '../api/lookup-users';

/** /users (platform staff): find anyone across organisations by name, email or phone; each links to their organisation's people. */
export function UsersPage() {
  const { t } = useTranslation();
  const searchId = useId();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [invalid, setInvalid] = useState(false);
  const users = useLookupUsers(q, page);
  const rows = users.data?.users ?? [];
  const pages = Math.max(1, Math.ceil((users.data?.total ?? 0) / USERS_PAGE_SIZE));

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get('q');
    const text = typeof value === 'string' ? value.trim() : '';
    if (!userLookupQuery.safeParse({ q: text }).success) return setInvalid(true);
    setInvalid(false);
    setQ(text);
    setPage(1);
  }

  return (
    <section>
      <PageHeading>{t('pages.users')}</PageHeading>
      <form
        role="search"
        className="mb-4 flex max-w-xl flex-wrap items-end gap-2"
        onSubmit={search}
        noValidate
      >
        <div className="min-w-0 flex-1">
          <label htmlFor={searchId} className="block text-sm font-medium text-slate-700">
            {t('users.search')}
          </label>
          <input
            id={searchId}
            name="q"
            type="search"
            data-testid="users-search"
            aria-describedby={`${searchId}-hint`}
            aria-invalid={invalid}
            className="mt-1 block min-h-11 w-full rounded-md border border-slate-300 px-3 text-sm focus:border-sky-600 focus:ring-2 focus:ring-sky-600 focus:outline-none"
          />
          <p id={`${searchId}-hint`} className="mt-1 text-xs text-slate-600">
            {invalid ? t('users.tooLong') : t('users.hint')}
          </p>
        </div>
        <Button type="submit" variant="primary">
          {t('users.find')}
        </Button>
      </form>
      <QueryState
        isPending={users.isPending}
        isError={users.isError}
        isEmpty={rows.length === 0}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: t('users.empty'),
          retry: t('common.retry'),
        }}
        onRetry={() => void users.refetch()}
      >
        <p className="mb-2 text-sm text-slate-600" role="status" data-testid="users-total">
          {t('users.total', { count: users.data?.total ?? 0 })}
        </p>
        <Table data-testid="users-table">
          <caption className="sr-only">{t('pages.users')}</caption>
          <thead>
            <tr>
              <Th>{t('users.columns.name')}</Th>
              <Th>{t('users.columns.contact')}</Th>
              <Th>{t('users.columns.role')}</Th>
              <Th>{t('users.columns.organization')}</Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((u) => (
              <tr key={u.uid} data-testid="user-row">
                <Td className="font-medium text-slate-900">{u.name}</Td>
                <Td className="break-all">
                  {[u.email, u.phoneNumber].filter(Boolean).join(' / ') || t('common.none')}
                </Td>
                <Td>{t(`roles.${u.role}`)}</Td>
                <Td>
                  {u.clientId ? (
                    <AppLink
                      to={paths.organizations.members.build({ id: u.clientId })}
                      className={`text-teal-800 hover:underline ${focusRing}`}
                    >
                      {u.organizationName ?? u.clientId}
                    </AppLink>
                  ) : (
                    t('users.platform')
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {pages > 1 && (
          <nav aria-label={t('users.pages')} className="mt-3 flex items-center gap-2">
            <Button
              type="button"
              variant="outline"
              disabled={page <= 1}
              onClick={() => setPage(page - 1)}
            >
              {t('users.previous')}
            </Button>
            <span className="text-sm text-slate-700">
              {page} / {pages}
            </span>
            <Button
              type="button"
              variant="outline"
              disabled={page >= pages}
              onClick={() => setPage(page + 1)}
            >
              {t('users.next')}
            </Button>
          </nav>
        )}
      </QueryState>
    </section>
  );
}
