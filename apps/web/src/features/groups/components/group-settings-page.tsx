import type { GroupLiveState } from '@wearable/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { QueryState } from '../../../components/ui/query-state';
import { useCan } from '../../../lib/use-can';
import { FieldError, inputClass } from '../../../components/ui/form-parts';
import { OrganizationScope } from '../../../components/organization-scope';
import { useCreateGroup } from '../api/create-group';
import { useGroups } from '../../../lib/use-groups';
import { DeleteGroupDialog, NAME_MAX, nameProblem, RenameGroupDialog } from './group-dialogs';
import { GroupFailure } from './group-failure';

/** /settings/groups: create, rename and delete the organisation's groups (for who holds group:manage). */
export function GroupSettingsPage() {
  const { t } = useTranslation();
  return (
    <section>
      <PageHeading>{t('pages.settingsGroups')}</PageHeading>
      <OrganizationScope testId="group-settings-organization">
        {(clientId) => <GroupSettings clientId={clientId} />}
      </OrganizationScope>
    </section>
  );
}

function GroupSettings({ clientId }: { clientId: string }) {
  const { t } = useTranslation();
  const mayManage = useCan('group:manage', { organizationId: clientId });
  const groups = useGroups(clientId);
  const [renaming, setRenaming] = useState<GroupLiveState | null>(null);
  const [deleting, setDeleting] = useState<GroupLiveState | null>(null);
  const rows = groups.data ?? [];
  return (
    <div className="space-y-6">
      {mayManage ? (
        <CreateGroupForm clientId={clientId} />
      ) : (
        <p className="text-sm text-slate-600" data-testid="groups-read-only">
          {t('groups.readOnly')}
        </p>
      )}
      <QueryState
        isPending={groups.isPending}
        isError={groups.isError}
        isEmpty={rows.length === 0}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: t('groups.empty'),
          retry: t('common.retry'),
        }}
        onRetry={() => void groups.refetch()}
      >
        <ul
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
          aria-label={t('groups.listLabel')}
          data-testid="group-settings-list"
        >
          {rows.map((group) => (
            <li
              key={group.id}
              className="flex flex-wrap items-center justify-between gap-3 p-4"
              data-testid="group-settings-row"
            >
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900">{group.name}</p>
                <p className="text-sm text-slate-600">
                  {t('groups.wearerCount', { count: group.wearerCount })}
                </p>
              </div>
              {mayManage && (
                <div className="flex flex-wrap gap-2">
                  <Button
                    variant="outline"
                    onClick={() => setRenaming(group)}
                    aria-label={t('groups.rename.open', { name: group.name })}
                    data-testid="group-rename-open"
                  >
                    {t('groups.rename.button')}
                  </Button>
                  <Button
                    variant="ghost"
                    onClick={() => setDeleting(group)}
                    aria-label={t('groups.remove.open', { name: group.name })}
                    data-testid="group-delete-open"
                  >
                    {t('groups.remove.button')}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      </QueryState>
      {renaming && <RenameGroupDialog group={renaming} onClose={() => setRenaming(null)} />}
      {deleting && <DeleteGroupDialog group={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}

function CreateGroupForm({ clientId }: { clientId: string }) {
  const { t } = useTranslation();
  const create = useCreateGroup();
  const [name, setName] = useState('');
  const [tried, setTried] = useState(false);
  const problem = nameProblem(name);
  const showProblem = tried && problem !== null;
  return (
    <form
      noValidate
      className="rounded-lg border border-slate-200 bg-white p-4"
      aria-labelledby="group-create-title"
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (problem !== null) return;
        create.mutate(
          { clientId, name: name.trim() },
          {
            onSuccess: () => {
              setName('');
              setTried(false);
            },
          },
        );
      }}
    >
      <h2 id="group-create-title" className="text-base font-semibold text-slate-900">
        {t('groups.create.title')}
      </h2>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-start">
        <label className="block flex-1 text-sm font-medium text-slate-700">
          {t('groups.name')}
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            className={inputClass}
            aria-invalid={showProblem}
            aria-describedby={showProblem ? 'group-create-error' : undefined}
            data-testid="group-create-name"
          />
          <FieldError show={showProblem} id="group-create-error">
            {t(`groups.errors.${problem ?? 'required'}`, { max: NAME_MAX })}
          </FieldError>
        </label>
        <Button
          type="submit"
          variant="primary"
          className="sm:mt-6"
          disabled={create.isPending}
          data-testid="group-create-submit"
        >
          {t('groups.create.submit')}
        </Button>
      </div>
      <GroupFailure error={create.error} />
    </form>
  );
}
