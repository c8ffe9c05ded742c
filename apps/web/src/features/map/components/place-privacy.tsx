import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { useCan } from '../../../lib/use-can';
import { useUpdatePlacePrivacy } from '../api/update-place-privacy';

/**
 * The organisation's place privacy on the map: owners switch "places only while an alert is open"
 * (audited on the server); everyone else is told when it is on.
 */
export function PlacePrivacy({
  organizationId,
  onlyDuringAlerts,
}: {
  organizationId: string;
  onlyDuringAlerts: boolean;
}) {
  const { t } = useTranslation('map');
  const mayChange = useCan('organization:update', { organizationId });
  const update = useUpdatePlacePrivacy(organizationId);
  if (!mayChange)
    return onlyDuringAlerts ? (
      <p className="mb-3 text-sm text-slate-700" data-testid="map-privacy-note">
        {t('privacy.note')}
      </p>
    ) : null;
  return (
    <div className="mb-3 text-sm">
      <label className="inline-flex items-start gap-2">
        <input
          type="checkbox"
          className={`mt-0.5 h-5 w-5 shrink-0 ${focusRing}`}
          checked={update.isPending ? update.variables : onlyDuringAlerts}
          disabled={update.isPending}
          onChange={(e) => update.mutate(e.target.checked)}
          data-testid="map-privacy"
        />
        <span>{t('privacy.label')}</span>
      </label>
      {update.isError && (
        <p role="alert" className="mt-1 text-red-800">
          {t('privacy.failed')}
        </p>
      )}
    </div>
  );
}
