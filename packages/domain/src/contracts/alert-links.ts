import { z } from 'zod';
import { alertEndpoints } from './alerts.js';

/**
 * An alert SMS's short link (issue 36 item 4): `PUBLIC_URL/a/<code>`, a web page that asks the
 * server where the code leads. The code is opaque (random, 7 letters and digits: it names an
 * alert, it grants nothing); the answer is given only to a signed-in user who may see the alert,
 * and anyone else gets the same 404 as for an unknown code.
 */
export const ALERT_LINK_CODE_LENGTH = 7;
export const ALERT_LINK_CODE_PATTERN = /^[0-9A-Za-z]{7}$/;
/** The short path of an alert's SMS (the web app's paths.alertLink). */
export const alertLinkPath = (code: string): string => `/a/${encodeURIComponent(code)}`;

export const alertLinkParams = z.object({
  code: z
    .string()
    .regex(ALERT_LINK_CODE_PATTERN, `must be ${ALERT_LINK_CODE_LENGTH} letters or digits`),
});
export const alertLinkResponse = z.object({
  alertId: z.string(),
  /** The alert's organisation. */
  clientId: z.string(),
  /** The wearer whose alerts page the link opens; null for a device no wearer holds (issue 34). */
  uid: z.string().nullable(),
});
export type AlertLinkResponse = z.infer<typeof alertLinkResponse>;

export const getAlertLink = alertEndpoints({
  method: 'GET',
  path: '/v2/alert/link/{code}',
  permission: 'alert:read',
  summary: "Where an alert SMS's short link leads: the alert, its organisation and wearer",
  params: alertLinkParams,
  responses: { 200: alertLinkResponse },
});
