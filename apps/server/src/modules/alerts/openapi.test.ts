import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('OpenAPI document', () => {
  it('is generated from the contracts of the alerts, device data, settings, notifications and live routes', async () => {
    const res = await t.app.inject({ url: '/v2/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/v2/alert/list',
        '/v2/alert/listCsv',
        '/v2/alert/confirm',
        '/v2/alert/batchConfirm',
        '/v3/device/summary',
        '/v3/device/history',
        '/v2/device/monthlyReport',
        '/v2/user/alertSettings/list',
        '/v2/client/{clientId}/user/alertSetting',
        '/v2/client/{clientId}/users/alertSettings/bulk',
        '/v2/group/{groupId}/alertNoticeSettings',
        '/v2/notifications',
        '/v3/live',
      ]),
    );
  });
});
