import { type DragEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlacedGatewayView, SiteView } from '@wearable/domain';
import { focusRing } from '../../../components/ui/button';
import { useSitePlanUrl } from '../api/get-sites';
import { percent } from './site-text';

/** The data a dragged gateway carries (its id). */
export const GATEWAY_DRAG_TYPE = 'application/x-wearable-gateway';

const clamp = (v: number) => Math.min(1, Math.max(0, v));

/**
 * The plan with its gateways as markers. A gateway (a marker, or one from the list beside) is
 * dropped onto it to be placed where it falls; each marker is also a button that opens the
 * gateway's coordinates form, the keyboard way to place it.
 */
export function SitePlan({
  site,
  gateways,
  onDrop,
  onEdit,
}: {
  site: SiteView;
  gateways: PlacedGatewayView[];
  onDrop: (gatewayId: string, x: number, y: number) => void;
  onEdit: (gatewayId: string) => void;
}) {
  const { t } = useTranslation('sites');
  const url = useSitePlanUrl(site.id, site.plan?.sha256 ?? null);
  const frame = useRef<HTMLDivElement>(null);
  if (!site.plan) return null;
  const onThis = gateways.filter((g) => g.plan?.siteId === site.id);

  function drop(e: DragEvent) {
    e.preventDefault();
    const gatewayId = e.dataTransfer.getData(GATEWAY_DRAG_TYPE);
    const box = frame.current?.getBoundingClientRect();
    if (!gatewayId || !box || box.width === 0 || box.height === 0) return;
    onDrop(
      gatewayId,
      clamp((e.clientX - box.left) / box.width),
      clamp((e.clientY - box.top) / box.height),
    );
  }

  return (
    <figure className="mt-3">
      <figcaption className="text-sm text-slate-700">{t('plan.dragHint')}</figcaption>
      <div
        ref={frame}
        className="relative mt-2 w-full max-w-3xl border border-slate-300 bg-white"
        style={{ aspectRatio: `${site.plan.width} / ${site.plan.height}` }}
        onDragOver={(e) => {
          if (e.dataTransfer.types.includes(GATEWAY_DRAG_TYPE)) e.preventDefault();
        }}
        onDrop={drop}
        data-testid="site-plan"
      >
        {url ? (
          <img
            src={url}
            alt={t('plan.alt', { name: site.name })}
            className="absolute inset-0 h-full w-full object-fill select-none"
            draggable={false}
          />
        ) : (
          <p className="p-3 text-sm text-slate-600">{t('plan.loading')}</p>
        )}
        {onThis.map((g) => (
          <button
            key={g.gatewayId}
            type="button"
            draggable
            onDragStart={(e) => {
              e.dataTransfer.setData(GATEWAY_DRAG_TYPE, g.gatewayId);
              e.dataTransfer.effectAllowed = 'move';
            }}
            onClick={() => onEdit(g.gatewayId)}
            aria-label={t('plan.marker', {
              name: g.name,
              x: percent(g.plan!.x),
              y: percent(g.plan!.y),
            })}
            className={`absolute flex min-h-6 max-w-32 -translate-x-1/2 -translate-y-1/2 items-center gap-1 rounded-full bg-teal-800 px-2 py-1 text-xs font-medium text-white shadow ${focusRing}`}
            style={{ left: `${g.plan!.x * 100}%`, top: `${g.plan!.y * 100}%` }}
            data-testid="plan-marker"
          >
            <span aria-hidden="true" className="h-2 w-2 shrink-0 rounded-full bg-white" />
            <span className="truncate">{g.name}</span>
          </button>
        ))}
      </div>
    </figure>
  );
}
