import { type ChangeEvent, type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type PlacedGatewayView, SITE_PLAN_MAX_BYTES, type SiteView } from '@wearable/domain';
import { Button, buttonClasses } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import {
  useDeleteSite,
  useDeleteSitePlan,
  usePlaceGateway,
  useRenameSite,
  useUploadSitePlan,
} from '../api/change-sites';
import { GatewayPlaceForm } from './gateway-place-form';
import { GATEWAY_DRAG_TYPE, SitePlan } from './site-plan';
import { messageOf, percent } from './site-text';

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-sky-600 focus:outline-none focus:ring-2 focus:ring-sky-600';

/** One site opened: rename, delete, its plan (upload, replace, remove) and its gateways' places. */
export function SiteDetail({
  site,
  gateways,
  sites,
  canManage,
  onDeleted,
}: {
  site: SiteView;
  gateways: PlacedGatewayView[];
  sites: SiteView[];
  canManage: boolean;
  onDeleted: () => void;
}) {
  const { t } = useTranslation('sites');
  const id = useId();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(site.name);
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const rename = useRenameSite();
  const remove = useDeleteSite();
  const upload = useUploadSitePlan();
  const removePlan = useDeleteSitePlan();
  const place = usePlaceGateway();
  const siteName = (siteId: string) => sites.find((s) => s.id === siteId)?.name ?? siteId;
  const fail = (err: unknown) => setProblem(t('failed', { message: messageOf(err) }));

  function submitRename(e: FormEvent) {
    e.preventDefault();
    rename.mutate(
      { siteId: site.id, name },
      { onSuccess: () => setRenaming(false), onError: fail },
    );
  }

  function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setStatus(null);
    if (file.size > SITE_PLAN_MAX_BYTES) return setProblem(t('plan.tooLarge'));
    setProblem(null);
    upload.mutate(
      { siteId: site.id, file },
      {
        onSuccess: () => setStatus(t('plan.uploaded')),
        onError: (err) =>
          setProblem(
            err instanceof ApiError && err.status === 413
              ? t('plan.tooLarge')
              : err instanceof ApiError && err.status === 400
                ? t('plan.notImage')
                : t('failed', { message: messageOf(err) }),
          ),
      },
    );
  }

  const dropped = (gatewayId: string, x: number, y: number) => {
    const g = gateways.find((c) => c.gatewayId === gatewayId);
    if (!g) return;
    place.mutate(
      { gatewayId, place: { plan: { siteId: site.id, x, y }, position: g.position } },
      { onSuccess: () => setStatus(t('gateways.saved', { name: g.name })), onError: fail },
    );
  };

  const where = (g: PlacedGatewayView) =>
    g.plan === null
      ? t('gateways.notOnPlan')
      : g.plan.siteId === site.id
        ? t('gateways.onThisPlan', { x: percent(g.plan.x), y: percent(g.plan.y) })
        : t('gateways.onOtherSite', { site: siteName(g.plan.siteId) });

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mt-4 rounded-md border border-slate-200 p-3 sm:p-4"
      data-testid="site-detail"
    >
      <h3 id={`${id}-title`} className="text-lg font-semibold break-words text-slate-900">
        {site.name}
        {site.groupName && (
          <span className="ml-2 text-sm font-normal text-slate-600">{site.groupName}</span>
        )}
      </h3>

      {canManage && !renaming && (
        <div className="mt-2 flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            aria-label={t('site.renameNamed', { name: site.name })}
            onClick={() => {
              setName(site.name);
              setRenaming(true);
            }}
          >
            {t('site.rename')}
          </Button>
          <Button
            type="button"
            variant="destructive"
            aria-label={t('site.deleteNamed', { name: site.name })}
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm(t('site.deleteConfirm', { name: site.name })))
                remove.mutate(site.id, { onSuccess: onDeleted, onError: fail });
            }}
          >
            {t('site.delete')}
          </Button>
        </div>
      )}
      {renaming && (
        <form onSubmit={submitRename} className="mt-2 flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <label htmlFor={`${id}-name`} className="block text-sm font-medium text-slate-800">
              {t('site.newName', { name: site.name })}
            </label>
            <input
              id={`${id}-name`}
              className={inputClass}
              value={name}
              maxLength={100}
              required
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <Button type="submit" variant="primary" disabled={rename.isPending}>
            {t('site.save')}
          </Button>
          <Button type="button" variant="outline" onClick={() => setRenaming(false)}>
            {t('site.cancel')}
          </Button>
        </form>
      )}

      <h4 className="mt-4 text-base font-semibold text-slate-900">
        {t('plan.title', { name: site.name })}
      </h4>
      {canManage && (
        <div className="mt-2 flex flex-wrap gap-2">
          <label
            className={buttonClasses(
              'outline',
              'cursor-pointer focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-teal-600',
            )}
          >
            <span>{site.plan ? t('plan.replace') : t('plan.upload')}</span>
            <input
              type="file"
              accept="image/png,image/jpeg,image/webp"
              className="sr-only"
              onChange={choose}
              disabled={upload.isPending}
              data-testid="plan-file"
            />
          </label>
          {site.plan && (
            <Button
              type="button"
              variant="outline"
              disabled={removePlan.isPending}
              onClick={() => {
                if (window.confirm(t('plan.removeConfirm', { name: site.name })))
                  removePlan.mutate(site.id, { onError: fail });
              }}
            >
              {t('plan.remove')}
            </Button>
          )}
        </div>
      )}
      <div aria-live="polite" className="text-sm">
        {upload.isPending && <p className="mt-2 text-slate-700">{t('plan.uploading')}</p>}
        {status && (
          <p className="mt-2 text-teal-800" data-testid="site-status">
            {status}
          </p>
        )}
      </div>
      {problem && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      )}
      {!site.plan && <p className="mt-2 text-sm text-slate-600">{t('site.noPlan')}</p>}
      <SitePlan site={site} gateways={gateways} onDrop={dropped} onEdit={setEditing} />

      <h4 className="mt-4 text-base font-semibold text-slate-900">{t('gateways.title')}</h4>
      {gateways.length === 0 && <p className="text-sm text-slate-600">{t('gateways.none')}</p>}
      <ul className="divide-y divide-slate-200">
        {gateways.map((g) => (
          <li key={g.gatewayId} className="py-2" data-testid="site-gateway">
            <div className="flex flex-wrap items-center gap-2">
              {canManage && site.plan && (
                <span
                  draggable
                  onDragStart={(e) => {
                    e.dataTransfer.setData(GATEWAY_DRAG_TYPE, g.gatewayId);
                    e.dataTransfer.effectAllowed = 'move';
                  }}
                  title={t('gateways.drag', { name: g.name })}
                  aria-hidden="true"
                  className="cursor-grab rounded border border-dashed border-slate-400 px-2 py-1 text-xs text-slate-700"
                  data-testid="gateway-drag"
                >
                  ⠿
                </span>
              )}
              <span className="min-w-0 font-medium break-words text-slate-900">{g.name}</span>
              <span className="text-sm text-slate-600">
                {where(g)}
                {g.position &&
                  ` · ${t('gateways.position', { latitude: g.position.latitude, longitude: g.position.longitude })}`}
              </span>
              {canManage && (
                <Button
                  type="button"
                  variant="outline"
                  className="ml-auto"
                  aria-expanded={editing === g.gatewayId}
                  aria-label={t('gateways.editNamed', { name: g.name })}
                  onClick={() => setEditing(editing === g.gatewayId ? null : g.gatewayId)}
                >
                  {t('gateways.edit')}
                </Button>
              )}
            </div>
            {editing === g.gatewayId && canManage && (
              <GatewayPlaceForm
                gateway={g}
                site={site}
                onDone={() => {
                  setEditing(null);
                }}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
