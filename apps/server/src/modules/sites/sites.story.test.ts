import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlacedGatewayView, SiteListResponse, SiteView } from '@wearable/domain';
import { createGateway, type GatewayRecord } from '../../testing/factories.js';
import { jpegHeader, png, webpHeader } from '../../testing/images.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { type ActorName, buildWorld, type World } from '../../testing/world.js';

/**
 * Sites told as an owner and a group manager use them, through the real app: a site, its plan
 * (checked by content, served so it can never run script), gateways placed on it by plan
 * coordinates and by latitude and longitude; every bad input refused with nothing stored, and
 * another organisation's staff get 404 on all of it.
 */
let t: TestApp;
let w: World;
let gwA: GatewayRecord;
let gwG1: GatewayRecord;
let gwB: GatewayRecord;
const as = (who: ActorName) => w.users[who].headers;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  gwA = await createGateway(t, { organizationId: w.orgA, name: 'Entrance' });
  gwG1 = await createGateway(t, { organizationId: w.orgA, groupId: w.g1, name: 'Dining room' });
  gwB = await createGateway(t, { organizationId: w.orgB, name: 'Other gate' });
});
afterAll(() => t?.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const api = (method: Method, url: string, who: ActorName, payload?: object) =>
  t.app.inject({ method, url, headers: as(who), ...(payload ? { payload } : {}) });
const upload = (
  siteId: string,
  bytes: Buffer,
  contentType: string,
  who: ActorName = 'ORGANIZATION_OWNER',
) =>
  t.app.inject({
    method: 'PUT',
    url: `/v2/site/${siteId}/plan`,
    headers: { ...as(who), 'content-type': contentType },
    payload: bytes,
  });
const list = async (who: ActorName = 'ORGANIZATION_OWNER', org = w.orgA) => {
  const res = await api('GET', `/v2/organization/${org}/sites`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SiteListResponse>();
};
const gatewayIn = (l: SiteListResponse, id: string) => l.gateways.find((g) => g.gatewayId === id);
const place = (gatewayId: string, body: object, who: ActorName = 'ORGANIZATION_OWNER') =>
  api('PUT', `/v2/gateway/${gatewayId}/place`, who, body);

async function createSite(name: string, who: ActorName = 'ORGANIZATION_OWNER', groupId?: string) {
  const res = await api('POST', `/v2/organization/${w.orgA}/sites`, who, {
    name,
    ...(groupId ? { groupId } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<SiteView>();
}

describe('an owner sets up a site with a plan and places gateways on it', () => {
  let site: SiteView;
  const plan = png(200, 100);

  it('creates a site; a second of the same name (any case) is a 409', async () => {
    site = await createSite('Main building');
    expect(site).toMatchObject({ name: 'Main building', groupId: null, plan: null });
    const again = await api('POST', `/v2/organization/${w.orgA}/sites`, 'ORGANIZATION_OWNER', {
      name: 'MAIN BUILDING',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'SITE_NAME_TAKEN' });
    expect((await list()).sites.map((s) => s.name)).toEqual(['Main building']);
  });

  it('uploads a PNG plan, read by content; the image is served with a fixed type and no script', async () => {
    const res = await upload(site.id, plan, 'application/octet-stream');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SiteView>().plan).toMatchObject({
      format: 'png',
      width: 200,
      height: 100,
      bytes: plan.length,
    });
    const image = await api('GET', `/v2/site/${site.id}/plan`, 'ORGANIZATION_GENERAL');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['content-security-policy']).toContain("default-src 'none'");
    expect(image.rawPayload.equals(plan)).toBe(true);
  });

  it('refuses a text file named .png, an SVG and a 6 MB image with the reason, keeping the plan', async () => {
    const before = (await list()).sites[0]!.plan!.sha256;
    const text = await upload(site.id, Buffer.from('just text, saved as plan.png'), 'image/png');
    expect(text.statusCode).toBe(400);
    expect(text.json<{ message: string }>().message).toMatch(/^body: .*not a PNG, JPEG or WebP/);
    const svg = await upload(
      site.id,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      'image/svg+xml',
    );
    expect(svg.statusCode).toBe(400);
    expect(svg.json<{ message: string }>().message).toMatch(/SVG/);
    const big = Buffer.concat([png(10, 10), Buffer.alloc(6 * 1024 * 1024)]);
    const tooBig = await upload(site.id, big, 'image/png');
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ code: 'SITE_PLAN_TOO_LARGE' });
    expect(tooBig.json<{ message: string }>().message).toMatch(/5 MB/);
    const json = await t.app.inject({
      method: 'PUT',
      url: `/v2/site/${site.id}/plan`,
      headers: { ...as('ORGANIZATION_OWNER'), 'content-type': 'application/json' },
      payload: '{"image":"x"}',
    });
    expect(json.statusCode).toBe(400);
    expect((await list()).sites[0]!.plan!.sha256).toBe(before);
  });

  it('replaces the plan with a JPEG or a WebP, recognised whatever the declared type', async () => {
    const jpeg = await upload(site.id, jpegHeader(1600, 900), 'image/png');
    expect(jpeg.json<SiteView>().plan).toMatchObject({ format: 'jpeg', width: 1600, height: 900 });
    const webp = await upload(site.id, webpHeader(800, 600), 'text/plain');
    expect(webp.json<SiteView>().plan).toMatchObject({ format: 'webp', width: 800, height: 600 });
    const image = await api('GET', `/v2/site/${site.id}/plan`, 'ORGANIZATION_OWNER');
    expect(image.headers['content-type']).toBe('image/webp');
    expect((await upload(site.id, plan, 'image/png')).statusCode).toBe(200);
  });

  it('places a gateway on the plan and at a position; out-of-range coordinates are refused', async () => {
    const res = await place(gwA.id, {
      plan: { siteId: site.id, x: 0.25, y: 0.75 },
      position: { latitude: 35.681, longitude: 139.767 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const placed = res.json<PlacedGatewayView>();
    expect(placed).toMatchObject({
      gatewayId: gwA.id,
      plan: { siteId: site.id, x: 0.25, y: 0.75 },
      position: { latitude: 35.681, longitude: 139.767 },
    });
    for (const [body, field] of [
      [{ plan: { siteId: site.id, x: 1.2, y: 0.5 }, position: null }, 'body.plan.x'],
      [{ plan: { siteId: site.id, x: 0.5, y: -0.1 }, position: null }, 'body.plan.y'],
      [{ plan: null, position: { latitude: 91, longitude: 0 } }, 'body.position.latitude'],
      [{ plan: null, position: { latitude: 0, longitude: -180.5 } }, 'body.position.longitude'],
    ] as const) {
      const bad = await place(gwA.id, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json<{ message: string }>().message).toContain(field);
    }
    expect(gatewayIn(await list(), gwA.id)).toEqual(placed);
  });

  it("another organisation's gateway cannot be placed on my site, nor mine on theirs", async () => {
    const foreign = await place(gwB.id, {
      plan: { siteId: site.id, x: 0.5, y: 0.5 },
      position: null,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'GATEWAY_NOT_FOUND' });
    const theirs = await place(
      gwB.id,
      { plan: { siteId: site.id, x: 0.5, y: 0.5 }, position: null },
      'OTHER_ORG_OWNER',
    );
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'SITE_NOT_FOUND' });
    expect(theirs.json<{ message: string }>().message).toContain('body.plan.siteId');
    // Even platform staff, who reach both organisations, cannot mix them.
    const mixed = await place(
      gwB.id,
      { plan: { siteId: site.id, x: 0.5, y: 0.5 }, position: null },
      'ALL_OWNER',
    );
    expect(mixed.statusCode).toBe(404);
    expect(gatewayIn(await list('OTHER_ORG_OWNER', w.orgB), gwB.id)).toMatchObject({
      plan: null,
      position: null,
    });
  });

  it("another organisation's staff get 404 on the site, its plan and its list", async () => {
    for (const [method, url] of [
      ['GET', `/v2/site/${site.id}/plan`],
      ['PUT', `/v2/site/${site.id}/plan`],
      ['DELETE', `/v2/site/${site.id}/plan`],
      ['PATCH', `/v2/site/${site.id}`],
      ['DELETE', `/v2/site/${site.id}`],
      ['GET', `/v2/organization/${w.orgA}/sites`],
    ] as const) {
      const res =
        method === 'PUT'
          ? await upload(site.id, plan, 'image/png', 'OTHER_ORG_OWNER')
          : await api(
              method,
              url,
              'OTHER_ORG_OWNER',
              method === 'PATCH' ? { name: 'x' } : undefined,
            );
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await list()).sites[0]).toMatchObject({
      name: 'Main building',
      plan: { format: 'png' },
    });
  });

  it('general staff read sites and plans but change nothing', async () => {
    expect((await list('ORGANIZATION_GENERAL')).sites).toHaveLength(1);
    expect(
      (await api('PATCH', `/v2/site/${site.id}`, 'ORGANIZATION_GENERAL', { name: 'x' })).statusCode,
    ).toBe(403);
    expect((await upload(site.id, plan, 'image/png', 'ORGANIZATION_GENERAL')).statusCode).toBe(403);
    expect(
      (await place(gwA.id, { plan: null, position: null }, 'ORGANIZATION_GENERAL')).statusCode,
    ).toBe(403);
  });

  it('renames the site, then deletes it: its gateways leave the plan and keep their position', async () => {
    const renamed = await api('PATCH', `/v2/site/${site.id}`, 'ORGANIZATION_OWNER', {
      name: 'Annex',
    });
    expect(renamed.json<SiteView>().name).toBe('Annex');
    const other = await createSite('Warehouse');
    await place(gwG1.id, { plan: { siteId: site.id, x: 0.1, y: 0.1 }, position: null });
    const gone = await api('DELETE', `/v2/site/${site.id}`, 'ORGANIZATION_OWNER');
    expect(gone.json()).toEqual({ siteId: site.id, deleted: true, unplacedGateways: 2 });
    const after = await list();
    expect(after.sites.map((s) => s.id)).toEqual([other.id]);
    expect(gatewayIn(after, gwA.id)).toMatchObject({ plan: null, position: { latitude: 35.681 } });
    expect(gatewayIn(after, gwG1.id)).toMatchObject({ plan: null, position: null });
    expect((await api('GET', `/v2/site/${site.id}/plan`, 'ORGANIZATION_OWNER')).statusCode).toBe(
      404,
    );
  });
});

describe('a group manager manages the sites of their group only', () => {
  it('makes a site in their group, not one of the whole organisation', async () => {
    const mine = await createSite('Group 1 floor', 'ORGANIZATION_GROUP', w.g1);
    expect(mine.groupId).toBe(w.g1);
    const whole = await api('POST', `/v2/organization/${w.orgA}/sites`, 'ORGANIZATION_GROUP', {
      name: 'Everything',
    });
    expect(whole.statusCode).toBe(403);
    const otherGroup = await api('POST', `/v2/organization/${w.orgA}/sites`, 'ORGANIZATION_GROUP', {
      name: 'Group 2 floor',
      groupId: w.g2,
    });
    expect(otherGroup.statusCode).toBe(400);
    expect(otherGroup.json<{ message: string }>().message).toContain('body.groupId');

    // Their group's gateway goes on their site; the other group's manager does not even see it.
    const placed = await place(
      gwG1.id,
      { plan: { siteId: mine.id, x: 0.5, y: 0.5 }, position: null },
      'ORGANIZATION_GROUP',
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const seen = await list('GROUP_MANAGER_OTHER_GROUP');
    expect(seen.sites.map((s) => s.id)).not.toContain(mine.id);
    expect(
      (await api('GET', `/v2/site/${mine.id}/plan`, 'GROUP_MANAGER_OTHER_GROUP')).statusCode,
    ).toBe(404);
    // An ungrouped gateway is the owners': not the group manager's to place.
    const ungrouped = await place(
      gwA.id,
      { plan: { siteId: mine.id, x: 0.5, y: 0.5 }, position: null },
      'ORGANIZATION_GROUP',
    );
    expect(ungrouped.statusCode).toBe(404);
  });

  it('personal users reach no site', async () => {
    const res = await api('GET', `/v2/organization/${w.orgA}/sites`, 'PERSONAL_LINKED');
    expect([403, 404]).toContain(res.statusCode);
  });
});

describe('the OpenAPI document', () => {
  it('describes the plan upload and the plan as images, not JSON; every change is audited', async () => {
    const doc = (await t.app.inject({ url: '/v2/openapi.json' })).json<{
      paths: Record<
        string,
        Record<
          string,
          { requestBody?: { content: object }; responses: Record<string, { content?: object }> }
        >
      >;
    }>();
    const plan = doc.paths['/v2/site/{siteId}/plan']!;
    expect(Object.keys(plan.put!.requestBody!.content)).toEqual([
      'image/png',
      'image/jpeg',
      'image/webp',
      'application/octet-stream',
    ]);
    expect(Object.keys(plan.get!.responses['200']!.content!)).toEqual([
      'image/png',
      'image/jpeg',
      'image/webp',
    ]);
    const kinds = await t.db.query<{ kind: string }>(
      "SELECT DISTINCT kind FROM audit_log WHERE organization_id = $1 AND kind IN ('site.change', 'gateway.change')",
      [w.orgA],
    );
    expect(kinds.map((k) => k.kind).sort()).toEqual(['gateway.change', 'site.change']);
  });
});
