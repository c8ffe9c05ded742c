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

export async function fetchDemoWearerNames(request: APIRequestContext): Promise<string[]> {
  const body = await getJson<{ devices: WearerListItem[] }>(
    request,
    '/demo-api/v2/user/device/list',
  );
  return body.devices.map((d) => d.name);
}
