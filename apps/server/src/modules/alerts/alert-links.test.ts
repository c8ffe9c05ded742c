import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR_NAMES, buildWorld, insertAlert, SEES, type World } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { alertLinksRepository } from './alert-links.repository.js';

// Issue 36 item 4: an alert SMS's short link PUBLIC_URL/a/<code>. The code names the alert and grants
// nothing: GET /v2/alert/link/{code} answers where it leads only to a caller who may see the alert.
let t: TestApp;
let w: World;
let alertId: string;
let code: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  alertId = await insertAlert(t.db, w.w1, { type: 'SOS_CALL' });
  code = await alertLinksRepository(t.db).codeFor(alertId, new Date());
});
afterAll(() => t?.close());

const resolve = (c: string, headers?: Record<string, string>) =>
  t.app.inject({ url: `/v2/alert/link/${c}`, ...(headers ? { headers } : {}) });

describe('an alert short link', () => {
  it('is 7 letters or digits, one per alert: a second SMS of the alert reuses it', async () => {
    expect(code).toMatch(/^[0-9A-Za-z]{7}$/);
    expect(await alertLinksRepository(t.db).codeFor(alertId, new Date())).toBe(code);
    const other = await insertAlert(t.db, w.w1, { type: 'DETECT_FALL_DOWN' });
    expect(await alertLinksRepository(t.db).codeFor(other, new Date())).not.toBe(code);
  });

  for (const actor of ACTOR_NAMES) {
    const sees = SEES[actor].includes('w1');
    it(`${actor}: ${sees ? 'the alert, its organisation and wearer' : 'the 404 of an unknown alert'}`, async () => {
      const res = await resolve(code, w.users[actor].headers);
      if (sees) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({ alertId, clientId: w.orgA, uid: w.w1.uid });
      } else {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().code).toBe('ALERT_NOT_FOUND');
        // Nothing of the alert in the refusal.
        expect(res.body).not.toContain(w.w1.uid);
      }
    });
  }

  it('signed out: 401; an unknown code: 404; a malformed one: 400 naming the code', async () => {
    expect((await resolve(code)).statusCode).toBe(401);
    const unknown = await resolve('zzzzzzz', w.users.ORGANIZATION_OWNER.headers);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('ALERT_NOT_FOUND');
    const bad = await resolve('abc-def', w.users.ORGANIZATION_OWNER.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('code');
  });
});
