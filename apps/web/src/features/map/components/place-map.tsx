import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { QueryState } from '../../../components/ui/query-state';
import { useMapSites, usePlaceMap } from '../api/get-place-map';
import { PeopleList } from './people-list';
import { useSitePlanUrl } from '../../../lib/use-plan-image';
import { firstSite, viewOf } from './place-model';
import { usePlaceText } from './place-text';
import { OutdoorView } from './outdoor-view';
import { PlacePrivacy } from './place-privacy';
import { PlanView } from './plan-view';

/**
 * /map (issue 17, item 4): the site plans with the people placed at their gateways, and beside
 * them the list of everyone with the same facts. One request for the places (getPlaceMap), the
 * sites and gateway placements from listSites.
 */
export function PlaceMap({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation('map');
  const map = usePlaceMap(organizationId);
  const sites = useMapSites(organizationId);
  const [chosenSite, setChosenSite] = useState<string | null>(null);
  const [openGateway, setOpenGateway] = useState<string | null>(null);
  const answer = map.data;
  // The rows decoded once per answer; the live refetches decode again only what arrived.
  const view = useMemo(() => viewOf(answer), [answer]);
  const text = usePlaceText(view.gateways);
  const withPlans = (sites.data?.sites ?? []).filter((s) => s.plan !== null);
  const siteId =
    chosenSite && withPlans.some((s) => s.id === chosenSite)
      ? chosenSite
      : firstSite(
          view.people,
          view.gateways,
          withPlans.map((s) => s.id),
        );
  const site = withPlans.find((s) => s.id === siteId) ?? null;
  // Asked for here, as soon as the sites are known: the plan image loads while the places do
  // (the first site with a plan; the most urgent person's, once the places say which).
  const planUrl = useSitePlanUrl(site?.id ?? '', site?.plan?.sha256 ?? null);

  return (
    <QueryState
      isPending={map.isPending}
      isError={map.isError}
      isEmpty={false}
      labels={{
        loading: t('loading'),
        error: t('error'),
        empty: t('list.empty'),
        retry: t('retry'),
      }}
      onRetry={() => void map.refetch()}
    >
      {answer && (
        <PlacePrivacy
          organizationId={organizationId}
          onlyDuringAlerts={answer.placesOnlyDuringAlerts}
        />
      )}
      <div className="grid min-w-0 gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0">
          <section aria-labelledby="map-plan-heading" className="min-w-0">
            <h2 id="map-plan-heading" className="text-base font-semibold text-slate-900">
              {t('plan.heading')}
            </h2>
            {withPlans.length > 1 && (
              <div role="group" aria-label={t('plan.sites')} className="mt-2 flex flex-wrap gap-2">
                {withPlans.map((s) => (
                  <Button
                    key={s.id}
                    variant={s.id === siteId ? 'primary' : 'outline'}
                    aria-pressed={s.id === siteId}
                    onClick={() => {
                      setChosenSite(s.id);
                      setOpenGateway(null);
                    }}
                  >
                    {s.name}
                  </Button>
                ))}
              </div>
            )}
            {site ? (
              <div className="mt-2">
                {withPlans.length === 1 && <p className="text-sm font-medium">{site.name}</p>}
                <PlanView
                  site={site}
                  gateways={sites.data?.gateways ?? []}
                  planUrl={planUrl}
                  atGateway={view.atGateway}
                  open={openGateway}
                  onOpen={setOpenGateway}
                  text={text}
                />
              </div>
            ) : (
              <p className="mt-2 text-sm text-slate-700" data-testid="map-no-plan">
                {sites.isPending ? t('plan.loading') : t('plan.none')}
              </p>
            )}
          </section>
          {answer && <OutdoorView people={view.people} tiles={answer.tiles} text={text} />}
        </div>
        {answer && (
          <PeopleList
            organizationId={organizationId}
            people={view.people}
            groups={view.groups}
            text={text}
          />
        )}
      </div>
    </QueryState>
  );
}
