import { expect, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD } from './roles.js';

/** The parts of the API contracts the browser tests lean on (packages/domain/src/contracts). */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  refreshExpiresIn: number;
}
export interface UserDevice {
  deviceId: string;
  deviceName: string;
  uid: string;
  usingWearableId: string;
  name: string;
}
export interface UserInfo {
  name: string;
  role: string;
  uid: string;
  agreedTermsOfUse: boolean;
  devices: UserDevice[];
}
export interface WearerListItem {
  uid: string;
  name: string;
}

export async function signInByApi(request: APIRequestContext, email: string): Promise<TokenPair> {
  const res = await request.post('/v2/auth/signIn', { data: { email, password: DEMO_PASSWORD } });
  expect(res.status(), `POST /v2/auth/signIn as ${email}: ${await res.text()}`).toBe(200);
  return (await res.json()) as TokenPair;
}

async function getJson<T>(
  request: APIRequestContext,
  path: string,
  accessToken?: string,
): Promise<T> {
  const headers: Record<string, string> = accessToken
    ? { authorization: `Bearer ${accessToken}` }
    : {};
  const res = await request.get(path, { headers });
  expect(res.status(), `GET ${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

export const fetchUser = (request: APIRequestContext, accessToken: string) =>
  getJson<UserInfo>(request, '/v2/user', accessToken);

/** Wearer names the caller may see, in the server's own name order. */
export async function fetchWearerNames(
  request: APIRequestContext,
  accessToken: string,
): Promise<string[]> {
  const body = await getJson<{ devices: WearerListItem[] }>(
    request,
    '/v2/user/device/list',
    accessToken,
  );
  return body.devices.map((d) => d.name);
}

/** The caller's wearers with how each name is read (furigana, where given): the lists sort by it. */
export async function fetchWearerNamesAndReadings(
  request: APIRequestContext,
  accessToken: string,
): Promise<{ name: string; nameReading: string | null }[]> {
  const body = await getJson<{ devices: { name: string; nameReading: string | null }[] }>(
    request,
    '/v2/user/device/list',
    accessToken,
  );
  return body.devices.map((d) => ({ name: d.name, nameReading: d.nameReading }));
}

export async function fetchDemoWearerNames(request: APIRequestContext): Promise<string[]> {
  const body = await getJson<{ devices: WearerListItem[] }>(
    request,
    '/demo-api/v2/user/device/list',
  );
  return body.devices.map((d) => d.name);
}

/**
 * Confirms (and so closes) the wearer's open alerts of one type: a test that must see an alert
 * open anew starts from none, so a retry on the same server starts where the first try did.
 */
export async function confirmOpenAlerts(
  request: APIRequestContext,
  accessToken: string,
  uid: string,
  type: string,
): Promise<void> {
  const open = await getJson<{ alerts: { id: string }[] }>(
    request,
    `/v2/alert/list?uid=${encodeURIComponent(uid)}&type=${type}&status=OPEN`,
    accessToken,
  );
  for (const { id } of open.alerts) {
    const res = await request.post('/v2/alert/confirm', {
      headers: { authorization: `Bearer ${accessToken}` },
      data: { alertId: id },
    });
    expect(res.status(), `POST /v2/alert/confirm ${id}: ${await res.text()}`).toBe(200);
  }
}

/** Ends the wearer's active snoozes (a retry of a snooze test starts from none). */
export async function endActiveSnoozes(
  request: APIRequestContext,
  accessToken: string,
  uid: string,
): Promise<void> {
  const active = await getJson<{ snoozes: { id: string }[] }>(
    request,
    `/v2/alert/snoozes?uid=${encodeURIComponent(uid)}`,
    accessToken,
  );
  for (const { id } of active.snoozes) {
    const res = await request.delete(`/v2/alert/snooze/${id}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(res.status(), `DELETE /v2/alert/snooze/${id}: ${await res.text()}`).toBe(200);
  }
}

/**
 * Sends an idempotent request, and once more if the kept-alive connection it went on was reset. After a long
 * wait (a story that waits out a one-minute window) the server closes the idle socket after its keep-alive
 * timeout (Fastify's 72 s) just as the test's client reuses it: browsers resend then, Playwright's request
 * context does not. Only for requests that change nothing more when sent twice (PATCH to a value, DELETE).
 */
export async function idempotent<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (!/ECONNRESET|socket hang up/.test(String(err))) throw err;
    return send();
  }
}
