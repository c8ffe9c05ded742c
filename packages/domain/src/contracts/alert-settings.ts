import { z } from 'zod';
import { alertSettings, alertSettingsPatch } from '../alert-settings.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';

const idParam = z.string().min(1).max(64);

/** GET /v2/user/alertSettings/list?clientId=&groupId=: every visible wearer's effective settings. */
/** uid: one wearer only (a staff page about one wearer need not load the organisation's every wearer). */
export const alertSettingsListQuery = z.object({
  clientId: idParam.optional(),
  groupId: idParam.optional(),
  uid: idParam.optional(),
});
export const wearerAlertSettings = z.object({
  uid: z.string(),
  name: z.string(),
  clientId: z.string(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  /** Whole years, null when the birth date is unknown (the engine then assumes 40). */
  age: z.number().int().nullable(),
  /** 208 - 0.7 x age, capped to 40..220. */
  maxHeartRate: z.number().int(),
  /** The upper bound the engine uses (heartRateUpper, or the maximum heart rate when null). */
  effectiveHeartRateUpper: z.number().int(),
  /** Stored settings merged over the defaults. */
  settings: alertSettings,
  updatedAt: z.string().nullable(),
});
export type WearerAlertSettings = z.infer<typeof wearerAlertSettings>;
export const alertSettingsListResponse = z.object({ settings: z.array(wearerAlertSettings) });

export const clientParams = z.object({ clientId: idParam });
/** PATCH /v2/client/{clientId}/user/alertSetting: the wearer and any subset of the settings. */
export const alertSettingPatchBody = alertSettingsPatch.safeExtend({ uid: idParam });
/** PATCH /v2/client/{clientId}/users/alertSettings/bulk: the same change to many wearers, all or nothing. */
export const alertSettingsBulkBody = z.strictObject({
  uids: z.array(idParam).min(1).max(1000),
  settings: alertSettingsPatch,
});
export type AlertSettingsBulkBody = z.infer<typeof alertSettingsBulkBody>;
export const alertSettingsUpdateResponse = z.object({ settings: z.array(wearerAlertSettings) });
/** POST /v2/client/{clientId}/users/alertSettings/bulk/preview: what the same body would change, writing nothing. */
export const alertSettingsBulkPreviewResponse = z.object({
  /** Wearers whose effective settings would differ. */
  changed: z.number().int(),
  unchanged: z.number().int(),
  changedUids: z.array(z.string()),
});
export type AlertSettingsBulkPreview = z.infer<typeof alertSettingsBulkPreviewResponse>;

const settings = endpointsOf({ tags: ['Alert settings'], errors: BEARER_ERRORS });

export const listAlertSettings = settings({
  method: 'GET',
  path: '/v2/user/alertSettings/list',
  permission: 'alertSettings:read',
  summary:
    "Every visible wearer's effective alert settings (an organisation, a group or one wearer)",
  query: alertSettingsListQuery,
  responses: { 200: alertSettingsListResponse },
});

export const updateAlertSetting = settings({
  method: 'PATCH',
  path: '/v2/client/{clientId}/user/alertSetting',
  permission: 'alertSettings:update',
  summary: "Change any subset of one wearer's alert settings; answers the stored result",
  params: clientParams,
  body: alertSettingPatchBody,
  responses: { 200: alertSettingsUpdateResponse },
});

export const updateAlertSettingsBulk = settings({
  method: 'PATCH',
  path: '/v2/client/{clientId}/users/alertSettings/bulk',
  permission: 'alertSettings:update',
  summary: 'The same change to many wearers, all or nothing',
  params: clientParams,
  body: alertSettingsBulkBody,
  responses: { 200: alertSettingsUpdateResponse },
});

export const previewAlertSettingsBulk = settings({
  method: 'POST',
  path: '/v2/client/{clientId}/users/alertSettings/bulk/preview',
  permission: 'alertSettings:update',
  summary: 'What the same bulk change would do: how many wearers it changes (writes nothing)',
  params: clientParams,
  body: alertSettingsBulkBody,
  responses: { 200: alertSettingsBulkPreviewResponse },
});
