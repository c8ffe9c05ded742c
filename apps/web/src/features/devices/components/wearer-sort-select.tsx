import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { DEVICE_LIST_SORTS, type DeviceListSort, isDeviceListSort } from '../lib/wearer-view';

/** The user list's order: those in alarm first (the default), or wearer name ascending or descending (spec section 9). */
export function WearerSortSelect({
  value,
  onChange,
}: {
  value: DeviceListSort;
  onChange: (sort: DeviceListSort) => void;
}) {
  const { t } = useTranslation();
  return (
    <label className="flex items-center gap-2 text-sm text-slate-600">
      {t('devices.sortLabel')}
      <select
        data-testid="sort-select"
        value={value}
        onChange={(event) => {
          if (isDeviceListSort(event.target.value)) onChange(event.target.value);
        }}
        className={`rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm ${focusRing}`}
      >
        {DEVICE_LIST_SORTS.map((option) => (
          <option key={option} value={option}>
            {t(`devices.sort.${option}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
