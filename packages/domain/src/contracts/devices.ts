import { z } from 'zod';

export const WEARER_SORTS = ['name_asc', 'name_desc'] as const;
export type WearerSort = (typeof WEARER_SORTS)[number];

/** GET /v2/user/device/list?sort=name_asc|name_desc&clientId=&groupId=: wearers the caller may see. */
export const wearerListQuery = z.object({
  sort: z.enum(WEARER_SORTS).default('name_asc'),
  clientId: z.string().min(1).max(64).optional(),
  groupId: z.string().min(1).max(64).optional(),
});
export const wearerListItem = z.object({
  uid: z.string(),
  name: z.string(),
  /** How the name is read (furigana): the list sorts by it when given. */
  nameReading: z.string().nullable(),
  clientId: z.string(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  /** The bracelet the wearer uses now, if any. */
  wearableId: z.string().nullable(),
  deviceName: z.string().nullable(),
  serialNumber: z.string().nullable(),
  gatewayId: z.string().nullable(),
  battery: z.number().int().nullable(),
});
export type WearerListItem = z.infer<typeof wearerListItem>;
export const wearerListResponse = z.object({ devices: z.array(wearerListItem) });
