import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ageOn, BUSINESS_SCHEDULE, maxHeartRate } from '@wearable/domain';
import { ACTOR_NAMES, type ActorName, type World, buildWorld, SEES } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

const get = (who: ActorName, url: string) => t.app.inject({ url, headers: w.users[who].headers });
const patch = (who: ActorName, url: string, payload: object) =>
  t.app.inject({ method: 'PATCH', url, payload, headers: w.users[who].headers });
const stored = async (uid: string) =>
  (
    await t.db.query<{ settings: Record<string, unknown> }>(
      'SELECT settings FROM wearer_alert_settings WHERE wearer_id = $1',
      [uid],
    )
  )[0]?.settings;
const one = (clientId: string) => `/v2/client/${clientId}/user/alertSetting`;
const bulk = (clientId: string) => `/v2/client/${clientId}/users/alertSettings/bulk`;

/** PATCH of w1's settings: can(actor, 'write', wearer); a wearer one cannot see is 404. */
const WRITE_W1: Record<ActorName, number> = {
  ALL_OWNER: 200,
  ALL_GENERAL: 403,
  ORGANIZATION_OWNER: 200,
  ORGANIZATION_GENERAL: 200,
  ORGANIZATION_GROUP: 200,
  GROUP_MANAGER_OTHER_GROUP: 404,
  OTHER_ORG_OWNER: 404,
  PERSONAL_LINKED: 200,
  PERSONAL_UNLINKED: 404,
  PERSONAL_SELF: 200,
};

describe('GET /v2/user/alertSettings/list', () => {
  it.each(ACTOR_NAMES)('%s sees exactly its wearers', async (who) => {
    const res = await get(who, '/v2/user/alertSettings/list');
    expect(res.statusCode).toBe(200);
    const uids = new Set(res.json<{ settings: { uid: string }[] }>().settings.map((s) => s.uid));
    for (const k of ['w1', 'w2', 'wB'] as const)
      expect(uids.has(w[k].uid), `${who} / ${k}`).toBe(SEES[who].includes(k));
  });

  it.each(ACTOR_NAMES)(
    '%s asking ?uid= for one wearer gets that one only, and only when it sees them',
    async (who) => {
      for (const k of ['w1', 'wB'] as const) {
        const res = await get(who, `/v2/user/alertSettings/list?uid=${w[k].uid}`);
        expect(res.statusCode).toBe(200);
        const uids = res.json<{ settings: { uid: string }[] }>().settings.map((s) => s.uid);
        expect(uids, `${who} / ${k}`).toEqual(SEES[who].includes(k) ? [w[k].uid] : []);
      }
      expect((await get(who, `/v2/user/alertSettings/list?uid=${'x'.repeat(65)}`)).statusCode).toBe(
        400,
      );
    },
  );

  it('gives defaults with the computed maximum heart rate', async () => {
    const res = await get('ORGANIZATION_OWNER', `/v2/user/alertSettings/list?groupId=${w.g2}`);
    const [s] = res.json().settings;
    const max = maxHeartRate(ageOn(w.w2.birthDate, new Date()));
    expect(s).toMatchObject({
      uid: w.w2.uid,
      maxHeartRate: max,
      effectiveHeartRateUpper: max,
      updatedAt: null,
    });
    expect(s.settings).toMatchObject({
      heartRateLower: 40,
      heartRateUpper: null,
      sustainedMinutes: 8,
    });
  });
});

describe('PATCH /v2/client/{clientId}/user/alertSetting', () => {
  it.each(ACTOR_NAMES)('%s changing w1', async (who) => {
    const lower = 41 + ACTOR_NAMES.indexOf(who);
    const before = await stored(w.w1.uid);
    const res = await patch(who, one(w.orgA), { uid: w.w1.uid, heartRateLower: lower });
    expect(res.statusCode).toBe(WRITE_W1[who]);
    if (WRITE_W1[who] === 200) {
      expect(res.json().settings[0].settings.heartRateLower).toBe(lower);
      expect((await stored(w.w1.uid))?.heartRateLower).toBe(lower);
    } else {
      expect(await stored(w.w1.uid)).toEqual(before);
    }
  });

  it('keeps what the patch does not name and the list shows it', async () => {
    await patch('ORGANIZATION_OWNER', one(w.orgA), {
      uid: w.w2.uid,
      heartRateUpper: 150,
      enabled: { HEART_RATE: false },
    });
    await patch('ORGANIZATION_OWNER', one(w.orgA), { uid: w.w2.uid, sustainedMinutes: 10 });
    const res = await get('ORGANIZATION_OWNER', `/v2/user/alertSettings/list?groupId=${w.g2}`);
    const [s] = res.json().settings;
    expect(s.settings).toMatchObject({
      heartRateUpper: 150,
      sustainedMinutes: 10,
      enabled: { HEART_RATE: false, SOS_CALL: true },
    });
    expect(s.effectiveHeartRateUpper).toBe(150);
  });

  it('a wearer of another organisation, or under another clientId, is 404', async () => {
    expect(
      (await patch('ORGANIZATION_OWNER', one(w.orgA), { uid: w.wB.uid, sustainedMinutes: 9 }))
        .statusCode,
    ).toBe(404);
    expect(
      (await patch('ALL_OWNER', one(w.orgB), { uid: w.w1.uid, sustainedMinutes: 9 })).statusCode,
    ).toBe(404);
  });

  it.each([
    [{ heartRateLower: 39 }, 'body.heartRateLower'],
    [{ heartRateUpper: 221 }, 'body.heartRateUpper'],
    [{ heartRateLower: 120, heartRateUpper: 110 }, 'body.heartRateUpper'],
    [{ heartRateLower: 'high' }, 'body.heartRateLower'],
    [{ sleepWindow: { start: '25:00' } }, 'body.sleepWindow.start'],
    [{ enabled: { NOPE: true } }, 'body.enabled'],
    [{ colour: 'red' }, 'body'],
    [{}, 'body.uid'],
  ])('bad body %j is a 400 naming %s, nothing stored', async (body, field) => {
    const before = await stored(w.w1.uid);
    const payload =
      'uid' in body || Object.keys(body).length === 0 ? body : { uid: w.w1.uid, ...body };
    const res = await patch(
      'ORGANIZATION_OWNER',
      one(w.orgA),
      Object.keys(body).length ? payload : {},
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
    expect(await stored(w.w1.uid)).toEqual(before);
  });

  it('checks the merged result: an upper bound below the stored lower bound is refused', async () => {
    await patch('ORGANIZATION_OWNER', one(w.orgA), {
      uid: w.w1.uid,
      heartRateLower: 100,
      heartRateUpper: null,
    });
    const res = await patch('ORGANIZATION_OWNER', one(w.orgA), {
      uid: w.w1.uid,
      heartRateUpper: 90,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('body.heartRateUpper');
    expect((await stored(w.w1.uid))?.heartRateUpper).toBeNull();
  });
});

describe('PATCH /v2/client/{clientId}/users/alertSettings/bulk', () => {
  it('changes every wearer at once', async () => {
    const res = await patch('ORGANIZATION_OWNER', bulk(w.orgA), {
      uids: [w.w1.uid, w.w2.uid],
      settings: { cooldownMinutes: 30 },
    });
    expect(res.statusCode).toBe(200);
    expect((await stored(w.w1.uid))?.cooldownMinutes).toBe(30);
    expect((await stored(w.w2.uid))?.cooldownMinutes).toBe(30);
  });

  it('is all or nothing: one invisible wearer refuses the whole change', async () => {
    const res = await patch('ORGANIZATION_OWNER', bulk(w.orgA), {
      uids: [w.w2.uid, w.wB.uid],
      settings: { cooldownMinutes: 45 },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain(w.wB.uid);
    expect((await stored(w.w2.uid))?.cooldownMinutes).toBe(30);
  });

  it('is all or nothing: one wearer whose merged settings are invalid refuses the whole change', async () => {
    await patch('ORGANIZATION_OWNER', one(w.orgA), {
      uid: w.w1.uid,
      heartRateLower: 150,
      heartRateUpper: null,
    });
    const res = await patch('ORGANIZATION_OWNER', bulk(w.orgA), {
      uids: [w.w2.uid, w.w1.uid],
      settings: { heartRateUpper: 140 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('body.settings.heartRateUpper');
    expect(res.json().message).toContain(w.w1.uid);
    expect((await stored(w.w2.uid))?.heartRateUpper).toBe(150);
  });

  it('a group manager cannot reach a wearer outside their groups', async () => {
    const res = await patch('ORGANIZATION_GROUP', bulk(w.orgA), {
      uids: [w.w1.uid, w.w2.uid],
      settings: { cooldownMinutes: 5 },
    });
    expect(res.statusCode).toBe(404);
    expect((await stored(w.w1.uid))?.cooldownMinutes).toBe(30);
  });

  it.each([
    [{ settings: {} }, 'body.uids'],
    [{ uids: [], settings: {} }, 'body.uids'],
    [
      {
        uids: ['x'],
        settings: { schedule: { monday: { enabled: true, startTime: '9:00', endTime: '18:00' } } },
      },
      'body.settings.schedule',
    ],
    [{ uids: ['x'], settings: { heartRateLower: 300 } }, 'body.settings.heartRateLower'],
  ])('bad bulk body %# is a 400 naming %s', async (payload, field) => {
    const res = await patch('ORGANIZATION_OWNER', bulk(w.orgA), payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });
});

describe("staff set any visible wearer's schedule (not only personal users their own)", () => {
  it.each(['ORGANIZATION_OWNER', 'ORGANIZATION_GENERAL', 'ORGANIZATION_GROUP'] as const)(
    '%s',
    async (who) => {
      const schedule = {
        ...BUSINESS_SCHEDULE,
        saturday: { enabled: true, startTime: `0${ACTOR_NAMES.indexOf(who)}:00`, endTime: '12:00' },
      };
      const res = await patch(who, one(w.orgA), { uid: w.w1.uid, schedule, heartRateUpper: 170 });
      expect(res.statusCode).toBe(200);
      expect(await stored(w.w1.uid)).toMatchObject({ schedule, heartRateUpper: 170 });
    },
  );
});

describe('POST /v2/client/{clientId}/users/alertSettings/bulk/preview', () => {
  const preview = (who: ActorName, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `${bulk(w.orgA)}/preview`,
      payload,
      headers: w.users[who].headers,
    });

  it('counts the wearers the change would change, and writes nothing', async () => {
    await patch('ORGANIZATION_OWNER', bulk(w.orgA), {
      uids: [w.w1.uid, w.w2.uid],
      settings: { cooldownMinutes: 30 },
    });
    await patch('ORGANIZATION_OWNER', one(w.orgA), { uid: w.w2.uid, cooldownMinutes: 20 });
    const res = await preview('ORGANIZATION_OWNER', {
      uids: [w.w1.uid, w.w2.uid],
      settings: { cooldownMinutes: 20 },
    });
    expect(res.json()).toEqual({ changed: 1, unchanged: 1, changedUids: [w.w1.uid] });
    expect((await stored(w.w1.uid))?.cooldownMinutes).toBe(30);
  });

  it("refuses as the change would: another organisation's wearer 404, a personal user 403, bad values 400", async () => {
    expect(
      (await preview('ORGANIZATION_OWNER', { uids: [w.wB.uid], settings: { cooldownMinutes: 5 } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await preview('ALL_GENERAL', { uids: [w.w1.uid], settings: { cooldownMinutes: 5 } }))
        .statusCode,
    ).toBe(403);
    const bad = await preview('ORGANIZATION_OWNER', {
      uids: [w.w1.uid],
      settings: { heartRateLower: 300 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('body.settings.heartRateLower');
  });
});
