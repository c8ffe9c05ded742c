import { useCallback, useState } from 'react';
import { DEFAULT_DEVICE_LIST_SORT, type DeviceListSort, isDeviceListSort } from './wearer-view';

/** localStorage key of the device list's order: the last choice, on this browser (logout clears it). */
export const DEVICE_LIST_SORT_KEY = 'devicesSort';

function readSort(): DeviceListSort {
  try {
    const stored = window.localStorage.getItem(DEVICE_LIST_SORT_KEY);
    return isDeviceListSort(stored) ? stored : DEFAULT_DEVICE_LIST_SORT;
  } catch {
    return DEFAULT_DEVICE_LIST_SORT;
  }
}

/** The device list's order, alerts first until the reader chooses another, which is remembered. */
export function useDeviceListSort(): [DeviceListSort, (sort: DeviceListSort) => void] {
  const [sort, setSort] = useState<DeviceListSort>(readSort);
  const choose = useCallback((next: DeviceListSort) => {
    setSort(next);
    try {
      window.localStorage.setItem(DEVICE_LIST_SORT_KEY, next);
    } catch {
      // Private mode or a full quota: the choice lasts for this page only.
    }
  }, []);
  return [sort, choose];
}
