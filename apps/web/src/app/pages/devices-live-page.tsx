import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Button, buttonClasses, focusRing } from '../../components/ui/button';
import { PageHeading } from '../../components/ui/page-heading';
import { NextStep } from '../../components/ui/next-step';
import { QueryState } from '../../components/ui/query-state';
import { Spinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import {
  filterWearers,
  orderKey,
  sortedWearers,
  useDeviceListSort,
  WearerFilter,
  type WearerState,
  WearerSortSelect,
} from '../../features/devices';
import {
  CoverageStrip,
  summaryPollMs,
  useLiveStatus,
  useNow,
  useWearerSummary,
} from '../../features/live';
import { SiteHeatStrip } from '../../features/site-heat';
import { UnassignedAlertsBanner } from '../../features/alerts';
import { RegisterBraceletDialog } from '../../features/bracelets';
import { useWearers } from '../../features/people/api/people-api';
import { AppLink } from '../../lib/app-path';
import { useCurrentUser } from '../../lib/current-user';
import { useCan } from '../../lib/use-can';
import { useMediaQuery } from '../../lib/use-media-query';
import { WearerCards } from './wearer-cards';
import { WearerTable } from './wearer-table';

/** /groups/{groupId}/devices: the same live list, of one group's wearers. */
export function GroupDevicesLivePage() {
  const { groupId = '' } = useParams();
  return <DevicesLivePage groupId={groupId} />;
}

/**
 * /devices: every wearer the caller may see with their live state and open alerts, from one cached
 * summary that the live stream keeps current. Sorting and filtering work on it in memory (no
 * request); the list draws a screen at a time, so 10,000 wearers open and scroll like 10.
 * With groupId, only that group's wearers (and the coverage strip counts only them).
 */
export function DevicesLivePage({ groupId }: { groupId?: string } = {}) {
  const { t, i18n, ready } = useTranslation(['common', 'live', 'alerts', 'wearer']);
  const [sort, setSort] = useDeviceListSort();
  const [text, setText] = useState('');
  const [state, setState] = useState<WearerState>('all');
  const live = useLiveStatus();
  const summary = useWearerSummary(summaryPollMs(live));
  const now = useNow();
  const locale = i18n.resolvedLanguage ?? 'ja';
  const all = summary.data?.wearers;
  // The readings of the names (furigana), by which names sort: the wearer list carries them.
  const ownClientId = useCurrentUser()?.mediromOrganizationId ?? null;
  const wearerList = useWearers(ownClientId).data;
  const readings = useMemo(
    () => new Map((wearerList ?? []).map((w) => [w.uid, w.nameReading])),
    [wearerList],
  );
  // The order changes only when what it depends on does: a live heart rate does not sort 10,000 again.
  const names = useMemo(() => orderKey(all ?? [], sort, readings), [all, sort, readings]);
  const order = useMemo(
    () => sortedWearers(all ?? [], sort, locale, groupId, readings).map((w) => w.uid),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `names` stands for what the order depends on
    [names, sort, locale, groupId],
  );
  const mine = useMemo(() => {
    const byUid = new Map((all ?? []).map((w) => [w.uid, w]));
    return order.flatMap((uid) => byUid.get(uid) ?? []);
  }, [all, order]);
  // Typing stays responsive: the list follows the input a moment later when it is long.
  const deferredText = useDeferredValue(text);
  const rows = useMemo(
    () => filterWearers(mine, { text: deferredText, state }),
    [mine, deferredText, state],
  );
  const groupName = mine.find((w) => w.groupName !== null)?.groupName ?? null;
  const title =
    groupId === undefined
      ? t('pages.devices')
      : groupName === null
        ? t('pages.groupDevices')
        : t('devices.groupTitle', { group: groupName });
  const wide = useMediaQuery('(min-width: 768px)');
  const organization = { organizationId: ownClientId ?? '' };
  const mayRegister = useCan('bracelet:register', organization) && ownClientId !== null;
  const mayAddWearer = useCan('wearer:manage', organization) && ownClientId !== null;
  const [registering, setRegistering] = useState(false);
  // The sites of the user's organisation, and of every organisation in the list (platform staff).
  const clientIds = useMemo(
    () => [
      ...new Set([...(ownClientId === null ? [] : [ownClientId]), ...mine.map((w) => w.clientId)]),
    ],
    [ownClientId, mine],
  );
  if (!ready) return <Spinner label={t('common.loading')} />;

  const sortSelect = <WearerSortSelect value={sort} onChange={setSort} />;
  const filtered = rows.length !== mine.length;

  return (
    <section>
      {groupId !== undefined && (
        <p className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <AppLink
            to={paths.groups.list.build()}
            className={`text-teal-800 hover:underline ${focusRing}`}
          >
            {t('devices.backToGroups')}
          </AppLink>
          <AppLink
            to={paths.groups.nightRound.build({ groupId })}
            className={`text-teal-800 hover:underline ${focusRing}`}
            data-testid="group-devices-night-round-link"
          >
            {t('groups.links.nightRound')}
          </AppLink>
        </p>
      )}
      <PageHeading actions={sortSelect}>{title}</PageHeading>
      {groupId === undefined && (mayRegister || mayAddWearer) && (
        <div className="mb-3 flex flex-wrap gap-2" data-testid="devices-actions">
          {mayAddWearer && (
            <AppLink
              to={`${paths.members.build()}?add=1`}
              className={buttonClasses('primary', focusRing)}
              data-testid="devices-add-wearer"
            >
              {t('menu.addWearer')}
            </AppLink>
          )}
          {mayRegister && (
            <Button
              variant="outline"
              onClick={() => setRegistering(true)}
              data-testid="devices-register-bracelet"
            >
              {t('wearer:register.open')}
            </Button>
          )}
          {mayAddWearer && (
            <AppLink
              to={paths.devices.import.build()}
              className={buttonClasses('outline', focusRing)}
              data-testid="devices-import"
            >
              {t('bulk.open')}
            </AppLink>
          )}
        </div>
      )}
      {registering && ownClientId !== null && (
        <RegisterBraceletDialog clientId={ownClientId} onClose={() => setRegistering(false)} />
      )}
      {summary.data !== undefined && <CoverageStrip wearers={mine} live={live} />}
      <SiteHeatStrip clientIds={clientIds} groupId={groupId} />
      <UnassignedAlertsBanner />
      <QueryState
        isPending={summary.isPending}
        isError={summary.isError}
        isEmpty={mine.length === 0}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: groupId === undefined ? t('devices.empty') : t('devices.groupEmpty'),
          retry: t('common.retry'),
        }}
        onRetry={() => void summary.refetch()}
        emptyAction={
          groupId === undefined &&
          mayAddWearer && (
            <>
              <NextStep
                text={t('devices.emptyNext')}
                to={`${paths.members.build()}?add=1`}
                label={t('devices.emptyNextLink')}
                testId="devices-empty-next"
              />
              {ownClientId !== null && (
                <NextStep
                  text={t('devices.emptySetup')}
                  to={paths.setup.build()}
                  label={t('devices.emptySetupLink')}
                  testId="devices-empty-setup"
                />
              )}
            </>
          )
        }
      >
        <WearerFilter text={text} state={state} onText={setText} onState={setState} />
        <p className="mb-2 text-sm text-slate-600" role="status" data-testid="wearer-count">
          {filtered ? t('devices.filter.shown', { count: rows.length, total: mine.length }) : ''}
        </p>
        {rows.length === 0 ? (
          <p className="text-sm text-slate-600">{t('devices.filter.none')}</p>
        ) : wide ? (
          <WearerTable wearers={rows} now={now} label={title} />
        ) : (
          <WearerCards wearers={rows} now={now} label={title} />
        )}
      </QueryState>
    </section>
  );
}
