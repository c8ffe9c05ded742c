import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { WearerListItem } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { QueryState } from '../../../components/ui/query-state';
import { focusRing } from '../../../components/ui/button';
import { Table, Td, Th } from '../../../components/ui/table';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { useCan } from '../../../lib/use-can';
import { useFamilies, useOrganizationGroups, useWearers } from '../api/people-api';
import { ExportPersonButton, FamilyDialog, RemoveWearerDialog } from './people-dialogs';
import { WearerDialog } from './wearer-dialog';

type Open = { kind: 'add' } | { kind: 'edit' | 'remove' | 'family'; wearer: WearerListItem } | null;

/**
 * An organisation's wearers and their family members (/members, /organization/{id}/member): add a
 * wearer, edit, remove, link or unlink a family member. Buttons show only for what the signed-in
 * person may do; the server decides anyway. clientId null: every wearer the caller reaches (platform).
 */
export function PeoplePanel({ clientId }: { clientId: string | null }) {
  const { t } = useTranslation();
  // /members?add=1 (装着者を追加 on /devices and in the menu) opens the form at once.
  const [search, setSearch] = useSearchParams();
  const [open, setOpenState] = useState<Open>(() =>
    search.get('add') === '1' ? { kind: 'add' } : null,
  );
  const setOpen = (next: Open) => {
    setOpenState(next);
    if (next === null && search.has('add')) {
      const rest = new URLSearchParams(search);
      rest.delete('add');
      setSearch(rest, { replace: true });
    }
  };
  const wearers = useWearers(clientId);
  const families = useFamilies(clientId).data ?? [];
  const groups = useOrganizationGroups(clientId).data ?? [];
  const organization = { organizationId: clientId ?? '' };
  const mayManage = useCan('wearer:manage', organization) && clientId !== null;
  const mayLink = useCan('family:manage', organization) && clientId !== null;
  // A person's whole file (APPI disclosure, docs/privacy.md): owners.
  const mayExport = useCan('person:exportOthers', organization) && clientId !== null;
  const mayErase = useCan('person:erase', organization) && clientId !== null;
  const rows = wearers.data ?? [];
  const none = t('common.none');
  const familyOf = (uid: string) =>
    families
      .filter((f) => f.wearers.some((w) => w.uid === uid))
      .map((f) => f.name)
      .join(', ') || none;
  const close = () => setOpen(null);

  return (
    <div className="space-y-4">
      {mayManage && (
        <div className="flex justify-end">
          <Button
            variant="primary"
            onClick={() => setOpen({ kind: 'add' })}
            data-testid="wearer-add"
          >
            {t('people.add.open')}
          </Button>
        </div>
      )}
      <QueryState
        isPending={wearers.isPending}
        isError={wearers.isError}
        isEmpty={rows.length === 0}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: t('people.empty'),
          retry: t('common.retry'),
        }}
        onRetry={() => void wearers.refetch()}
      >
        <Table data-testid="people-table" label={t('pages.members')}>
          <caption className="sr-only">{t('pages.members')}</caption>
          <thead>
            <tr>
              <Th>{t('people.fields.name')}</Th>
              <Th>{t('people.fields.group')}</Th>
              <Th>{t('people.fields.family')}</Th>
              <Th>
                <span className="sr-only">{t('people.actions')}</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((w) => (
              <tr key={w.uid} data-testid="people-row">
                <Td className="font-medium break-all">
                  <AppLink
                    to={paths.device.detail.build({ clientId: w.clientId, uid: w.uid })}
                    className={`text-teal-800 hover:underline ${focusRing}`}
                    data-testid="people-name"
                  >
                    {w.name}
                  </AppLink>
                  {w.nameReading !== null && (
                    <span className="block text-xs font-normal text-slate-600">
                      {w.nameReading}
                    </span>
                  )}
                </Td>
                <Td className="break-all">{w.groupName ?? none}</Td>
                <Td className="break-all">{familyOf(w.uid)}</Td>
                <Td>
                  <div className="flex flex-wrap gap-2">
                    {mayManage && (
                      <Button
                        variant="outline"
                        onClick={() => setOpen({ kind: 'edit', wearer: w })}
                        aria-label={t('people.edit.open', { name: w.name })}
                        data-testid="wearer-edit"
                      >
                        {t('people.edit.button')}
                      </Button>
                    )}
                    {mayLink && (
                      <Button
                        variant="outline"
                        onClick={() => setOpen({ kind: 'family', wearer: w })}
                        aria-label={t('people.family.open', { name: w.name })}
                        data-testid="family-open"
                      >
                        {t('people.family.button')}
                      </Button>
                    )}
                    {mayExport && <ExportPersonButton wearer={w} />}
                    {mayManage && (
                      <Button
                        variant="ghost"
                        onClick={() => setOpen({ kind: 'remove', wearer: w })}
                        aria-label={t('people.remove.open', { name: w.name })}
                        data-testid="wearer-remove"
                      >
                        {t('people.remove.button')}
                      </Button>
                    )}
                  </div>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </QueryState>
      {clientId !== null && open?.kind === 'add' && (
        <WearerDialog clientId={clientId} groups={groups} onClose={close} />
      )}
      {clientId !== null && open?.kind === 'edit' && (
        <WearerDialog clientId={clientId} wearer={open.wearer} groups={groups} onClose={close} />
      )}
      {open?.kind === 'remove' && (
        <RemoveWearerDialog wearer={open.wearer} mayErase={mayErase} onClose={close} />
      )}
      {open?.kind === 'family' && (
        <FamilyDialog wearer={open.wearer} families={families} onClose={close} />
      )}
    </div>
  );
}
