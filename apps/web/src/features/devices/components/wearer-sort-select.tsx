import { WEARER_SORTS, type WearerSort } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';

/** The user list's sort: wearer name ascending or descending (spec section 9). */
export function WearerSortSelect({
  value,
  onChange,
}: {
  value: WearerSort;
  onChange: (sort: WearerSort) => void;
}) {
  const { t } = useTranslation();
  return (
    <label className="flex items-center gap-2 text-sm text-slate-600">
      {t('devices.sortLabel')}
      <select
        data-testid="sort-select"
        value={value}
        onChange={(event) => onChange(event.target.value as WearerSort)}
        className={`rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm ${focusRing}`}
      >
        {WEARER_SORTS.map((option) => (
          <option key={option} value={option}>
            {t(`devices.sort.${option}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
