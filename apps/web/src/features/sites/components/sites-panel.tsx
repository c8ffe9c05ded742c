import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { QueryState } from '../../../components/ui/query-state';
import { useCan } from '../../../lib/use-can';
import { useCreateSite } from '../api/change-sites';
import { useSiteGroups } from '../api/get-groups';
import { useSites } from '../api/get-sites';
import { SiteDetail } from './site-detail';
import { messageOf } from './site-text';

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-sky-600 focus:outline-none focus:ring-2 focus:ring-sky-600';

/** A new site: its name and, optionally, the group it belongs to. */
function NewSiteForm({
  organizationId,
  onCreated,
}: {
  organizationId: string;
  onCreated: (id: string) => void;
}) {
  const { t } = useTranslation('sites');
  const id = useId();
  const [name, setName] = useState('');
  const [groupId, setGroupId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const groups = useSiteGroups(organizationId);
  const create = useCreateSite(organizationId);
  function submit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    create.mutate(
      { name, groupId: groupId || null },
      {
        onSuccess: (site) => {
          setName('');
          onCreated(site.id);
        },
        onError: (err) => setProblem(t('failed', { message: messageOf(err) })),
      },
    );
  }
  return (
    <form
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className="mt-4 rounded-md border border-slate-200 p-3"
    >
      <h3 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {t('create.title')}
      </h3>
      <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-name`} className="block text-sm font-medium text-slate-800">
            {t('create.name')}
          </label>
          <input
            id={`${id}-name`}
            className={inputClass}
            value={name}
            required
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            data-testid="new-site-name"
          />
        </div>
        <div>
          <label htmlFor={`${id}-group`} className="block text-sm font-medium text-slate-800">
            {t('create.group')}
          </label>
          <select
            id={`${id}-group`}
            className={inputClass}
            value={groupId}
            onChange={(e) => setGroupId(e.target.value)}
          >
            <option value="">{t('create.wholeOrganization')}</option>
            {(groups.data?.groups ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {problem && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      )}
      <Button type="submit" variant="primary" className="mt-3" disabled={create.isPending}>
        {t('create.submit')}
      </Button>
    </form>
  );
}

/**
 * /settings/sites: the organisation's sites, each opened to its plan and gateways. Staff read;
 * owners (and group managers, for their groups' sites) change them.
 */
export function SitesPanel({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation(['sites', 'common']);
  const sites = useSites(organizationId);
  const canManage = useCan('site:manage', { organizationId });
  const [openId, setOpenId] = useState<string | null>(null);
  const listId = useId();
  const data = sites.data;
  const open = data?.sites.find((s) => s.id === openId) ?? data?.sites[0] ?? null;
  return (
    <div className="max-w-4xl">
      <p className="text-sm text-slate-700">{t('intro')}</p>
      <QueryState
        isPending={sites.isPending}
        isError={sites.isError}
        isEmpty={false}
        labels={{
          loading: t('common:common.loading'),
          error: t('common:common.loadFailed'),
          empty: t('none'),
          retry: t('common:common.retry'),
        }}
        onRetry={() => void sites.refetch()}
      >
        {data && (
          <>
            <h2 id={listId} className="mt-4 text-lg font-semibold text-slate-900">
              {t('list')}
            </h2>
            {data.sites.length === 0 ? (
              <p className="text-sm text-slate-600">{t('none')}</p>
            ) : (
              <ul
                aria-labelledby={listId}
                className="mt-2 flex flex-wrap gap-2"
                data-testid="site-list"
              >
                {data.sites.map((s) => {
                  const current = s.id === open?.id;
                  const placed = data.gateways.filter((g) => g.plan?.siteId === s.id).length;
                  return (
                    <li key={s.id}>
                      <Button
                        type="button"
                        variant={current ? 'primary' : 'outline'}
                        aria-pressed={current}
                        onClick={() => setOpenId(s.id)}
                        className="h-auto flex-col items-start py-2 text-left"
                      >
                        <span className="break-words">{s.name}</span>
                        <span className="text-xs font-normal">
                          {s.plan
                            ? t('site.hasPlan', { width: s.plan.width, height: s.plan.height })
                            : t('site.noPlan')}
                          {' · '}
                          {t('site.gatewaysOn', { count: placed })}
                        </span>
                      </Button>
                    </li>
                  );
                })}
              </ul>
            )}
            {open && (
              <SiteDetail
                key={open.id}
                site={open}
                sites={data.sites}
                gateways={data.gateways}
                canManage={canManage}
                onDeleted={() => setOpenId(null)}
              />
            )}
            {canManage && <NewSiteForm organizationId={organizationId} onCreated={setOpenId} />}
          </>
        )}
      </QueryState>
    </div>
  );
}
