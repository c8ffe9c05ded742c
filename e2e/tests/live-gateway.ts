import { expect, type APIRequestContext } from '@playwright/test';

/** The demo organisation's first gateway (apps/server/src/db/seed/demo-data.ts): wearers 1-12, bracelets DEMO-BR-001.. */
const GATEWAY = 'Gateway demo-gateway-1:demo-gateway-secret-1';

export const bracelet = (n: number) => `DEMO-BR-${String(n).padStart(3, '0')}`;
export const wearerUid = (n: number) => `demo-wearer-${String(n).padStart(2, '0')}`;
export const DEMO_CLIENT = 'demo-org';

async function sendBatch(
  request: APIRequestContext,
  batch: Record<string, unknown>,
): Promise<void> {
  const res = await request.post('/gateway/v1/batches', {
    headers: { authorization: GATEWAY },
    data: batch,
  });
  expect(res.status(), `POST /gateway/v1/batches: ${await res.text()}`).toBe(200);
  const body = (await res.json()) as { rejected: unknown[] };
  expect(body.rejected).toEqual([]);
}

/** Readings a minute apart up to now, so the wearer has a latest state and a chart. */
export async function sendReadings(
  request: APIRequestContext,
  n: number,
  values: { heartRate: number; skinTemperature: number; battery: number; worn?: boolean },
  minutes = 5,
): Promise<void> {
  const now = Date.now();
  const readings = Array.from({ length: minutes }, (_, i) => ({
    serialNumber: bracelet(n),
    at: new Date(now - (minutes - 1 - i) * 60_000).toISOString(),
    heartRate: values.heartRate + (i % 3),
    skinTemperature: values.skinTemperature,
    worn: values.worn ?? true,
    battery: values.battery,
  }));
  await sendBatch(request, { readings });
}

/** The SOS button, as the bracelet's gateway reports it. */
export async function pressSos(request: APIRequestContext, n: number): Promise<void> {
  await sendBatch(request, {
    events: [{ serialNumber: bracelet(n), type: 'SOS', at: new Date().toISOString() }],
  });
}
