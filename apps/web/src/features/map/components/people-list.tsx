import type { MapPerson } from '@wearable/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, focusRing } from '../../../components/ui/button';
import { PersonName } from '../../../components/ui/person-name';
import { AppLink } from '../../../lib/app-path';
import { paths } from '../../../config/paths';
import { isUrgent } from './place-model';
import type { usePlaceText } from './place-text';

/** Cards shown at first; the rest one click away (a site of 10,000 stays quick to open). */
export const LIST_PAGE = 100;

/**
 * The same facts as the plan, for everyone (keyboard, screen reader, a narrow phone): each person
 * with their group, place, since when and open alert; people with an open alert first, an SOS or a
 * fall marked so it is seen.
 */
export function PeopleList({
  organizationId,
  people,
  groups,
  text,
}: {
  organizationId: string;
  people: readonly MapPerson[];
  groups: Map<string, string>;
  text: ReturnType<typeof usePlaceText>;
}) {
  const { t } = useTranslation('map');
  const { t: ta } = useTranslation('alerts');
  const [shown, setShown] = useState(LIST_PAGE);
  const visible = people.slice(0, shown);
  return (
    <section aria-labelledby="map-list-heading" className="min-w-0">
      <h2 id="map-list-heading" className="text-base font-semibold text-slate-900">
        {t('list.heading', { count: people.length })}
      </h2>
      {people.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">{t('list.empty')}</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2" data-testid="map-list">
          {visible.map((p) => {
            const since = text.since(p);
            const urgent = isUrgent(p);
            return (
              <li
                key={p.wearerId}
                data-testid="map-person"
                className={`rounded-lg border p-3 text-sm break-words ${
                  urgent ? 'border-red-600 bg-red-50' : 'border-slate-200 bg-white'
                }`}
              >
                <div className="flex flex-wrap items-baseline gap-x-2">
                  {urgent && (
                    <span aria-hidden="true" className="relative inline-flex h-3 w-3 self-center">
                      <span className="absolute inline-flex h-full w-full rounded-full bg-red-500 opacity-75 motion-safe:animate-ping" />
                      <span className="relative inline-flex h-3 w-3 rounded-full bg-red-600" />
                    </span>
                  )}
                  <AppLink
                    to={paths.device.detail.build({ clientId: organizationId, uid: p.wearerId })}
                    className={`font-semibold text-teal-800 underline-offset-2 hover:underline ${focusRing}`}
                  >
                    <PersonName name={p.name} />
                  </AppLink>
                  {p.groupId && (
                    <span className="text-slate-700">{groups.get(p.groupId) ?? ''}</span>
                  )}
                </div>
                <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5">
                  <dt className="text-slate-600">{t('list.place')}</dt>
                  <dd data-testid="map-person-place">{text.place(p)}</dd>
                  <dt className="text-slate-600">{t('list.since')}</dt>
                  <dd>{since ? <time dateTime={since.at}>{since.label}</time> : '—'}</dd>
                  <dt className="text-slate-600">{t('list.alert')}</dt>
                  <dd data-testid="map-person-alert">
                    {p.alert ? (
                      <span className={urgent ? 'font-semibold text-red-800' : ''}>
                        {t('list.openAlert', {
                          type: ta(`types.${p.alert.type}`),
                          time: text.time(p.alert.openedAt),
                        })}
                      </span>
                    ) : (
                      t('list.noAlert')
                    )}
                  </dd>
                </dl>
              </li>
            );
          })}
        </ul>
      )}
      {people.length > shown && (
        <Button variant="outline" className="mt-3" onClick={() => setShown(shown + LIST_PAGE * 10)}>
          {t('list.more', { count: Math.min(people.length - shown, LIST_PAGE * 10) })}
        </Button>
      )}
    </section>
  );
}
