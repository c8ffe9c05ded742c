import { type DeviceSummary, SUMMARY_COLUMNS, type WearerSummary } from '@wearable/domain';

/** The body of `GET /v3/device/summary?format=columns` for these wearers (what the console reads). */
export function summaryColumnsBody(wearers: (WearerSummary & { deviceName?: string | null })[]) {
  return {
    generatedAt: new Date().toISOString(),
    columns: SUMMARY_COLUMNS,
    rows: wearers.map((w) => {
      const full: DeviceSummary = { ...w, deviceName: w.deviceName ?? null };
      return SUMMARY_COLUMNS.map((c) => full[c]);
    }),
  };
}
