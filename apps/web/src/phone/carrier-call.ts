import { bareChoosePhoneCarrier, bareListPhoneWearers } from '@wearable/domain';
import type { Carrier, Enrolment } from './store';

// The contracts without their schemas (bare-endpoints.ts): zod stays out of the first load.
export const PHONE_WEARERS = bareListPhoneWearers;
export const PHONE_CARRIER = bareChoosePhoneCarrier;

/** Why a shared phone could not list or choose its person. */
export type CarrierProblem = 'offline' | 'signedOut' | 'notFound' | 'failed';

type Outcome<T> = { ok: true; value: T } | { ok: false; problem: CarrierProblem };

async function call<T>(
  enrolment: Enrolment,
  endpoint: { method: string; path: string },
  body?: object,
): Promise<Outcome<T>> {
  let response: Response;
  try {
    response = await fetch(endpoint.path, {
      method: endpoint.method,
      headers: {
        authorization: `Gateway ${enrolment.gatewayId}:${enrolment.credential}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  } catch {
    return { ok: false, problem: 'offline' };
  }
  if (response.status === 401) return { ok: false, problem: 'signedOut' };
  if (response.status === 404) return { ok: false, problem: 'notFound' };
  if (!response.ok) return { ok: false, problem: 'failed' };
  const value = (await response.json().catch(() => null)) as T | null;
  return value === null ? { ok: false, problem: 'failed' } : { ok: true, value };
}

/** GET /v2/phone/wearers: who may carry this shared phone (its gateway's group). */
export async function loadWearers(
  enrolment: Enrolment,
): Promise<Outcome<{ id: string; name: string }[]>> {
  const answer = await call<{ wearers?: unknown }>(enrolment, PHONE_WEARERS);
  if (!answer.ok) return answer;
  const list = answer.value.wearers;
  if (!Array.isArray(list)) return { ok: false, problem: 'failed' };
  return {
    ok: true,
    value: list.filter(
      (w): w is { id: string; name: string } =>
        typeof (w as { id?: unknown }).id === 'string' &&
        typeof (w as { name?: unknown }).name === 'string',
    ),
  };
}

/** PUT /v2/phone/carrier: this person carries the phone now; its bracelet is paired to them. */
export async function chooseCarrier(
  enrolment: Enrolment,
  wearerId: string,
): Promise<Outcome<Carrier>> {
  const answer = await call<Carrier>(enrolment, PHONE_CARRIER, { wearerId });
  if (!answer.ok) return answer;
  const c = answer.value;
  return typeof c.serialNumber === 'string' && typeof c.shared === 'boolean'
    ? {
        ok: true,
        value: { shared: c.shared, wearer: c.wearer ?? null, serialNumber: c.serialNumber },
      }
    : { ok: false, problem: 'failed' };
}
