import { randomUUID } from 'node:crypto';
import { IMPORT_ROW_LIMIT } from '@wearable/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWearer } from '../../testing/factories.js';
import { type ActorName, buildWorld, type World } from '../../testing/world.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let w: World;
let groupName: string;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  groupName = (
    await t.db.query<{ name: string }>('SELECT name FROM groups WHERE id = $1', [w.g1])
  )[0]!.name;
});
afterAll(() => t.close());

const post = (who: ActorName, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: w.users[who].headers, payload });
const importBracelets = (who: ActorName, rows: object[], dryRun = false, org = w.orgA) =>
  post(who, `/v2/client/${org}/bracelets/import`, { dryRun, rows });
const importWearers = (who: ActorName, rows: object[], dryRun = false, org = w.orgA) =>
  post(who, `/v2/client/${org}/wearers/import`, { dryRun, rows });
const count = async (sql: string, params: unknown[]) =>
  (await t.db.query<{ n: number }>(sql, params))[0]!.n;
const braceletsCalled = (serials: string[]) =>
  count('SELECT count(*)::int AS n FROM bracelets WHERE serial_number = ANY($1::text[])', [
    serials,
  ]);
const short = () => randomUUID().slice(0, 6).toUpperCase();

describe('bracelet CSV import', () => {
  it('previews without writing, imports all rows, and a re-import of the same file changes nothing', async () => {
    // A wearer without a bracelet yet (the factory's wearers wear one).
    const added = await post('ORGANIZATION_OWNER', '/v2/user/wearer', {
      clientId: w.orgA,
      name: `取込 ${short()}`,
      birthDate: '1970-01-02',
      groupId: w.g1,
    });
    const wearer = {
      uid: added.json<{ uid: string }>().uid,
      name: added.json<{ name: string }>().name,
    };
    const serials = [`IMP-${short()}`, `imp-${short()}`];
    const rows = [
      { serialNumber: serials[0], model: 'MB1', wearer: wearer.name },
      { serialNumber: ` ${serials[1]} `, model: 'MB2' },
    ];
    const preview = await importBracelets('ORGANIZATION_OWNER', rows, true);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      dryRun: true,
      created: 2,
      rows: [
        { row: 1, action: 'create' },
        { row: 2, action: 'create' },
      ],
    });
    expect(await braceletsCalled(serials.map((s) => s.toUpperCase()))).toBe(0);

    const done = await importBracelets('ORGANIZATION_OWNER', rows);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ dryRun: false, created: 2, updated: 0, unchanged: 0 });
    const stored = await t.db.query<{ serial_number: string; model: string; wearer_id: string }>(
      'SELECT serial_number, model, wearer_id FROM bracelets WHERE serial_number = ANY($1::text[]) ORDER BY model',
      [serials.map((s) => s.toUpperCase())],
    );
    expect(stored).toEqual([
      { serial_number: serials[0]!.toUpperCase(), model: 'MB1', wearer_id: wearer.uid },
      { serial_number: serials[1]!.toUpperCase(), model: 'MB2', wearer_id: null },
    ]);
    const assignments = () =>
      count('SELECT count(*)::int AS n FROM bracelet_assignments WHERE wearer_id = $1', [
        wearer.uid,
      ]);
    expect(await assignments()).toBe(1);

    const again = await importBracelets('ORGANIZATION_OWNER', rows);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(await assignments()).toBe(1);
  });

  it('a file with one bad row imports nothing, and the 400 names each row and column', async () => {
    const good = `GOOD-${short()}`;
    const worn = await createWearer(t, {
      organizationId: w.orgA,
      groupId: w.g1,
      name: `着用中 ${short()}`,
    });
    const res = await importBracelets('ORGANIZATION_OWNER', [
      { serialNumber: good, model: 'MB1' },
      { serialNumber: `OTHER-${short()}`, model: 'MB1', wearer: worn.name },
      { serialNumber: 'has space', model: '' },
      { serialNumber: good, model: 'MB1', wearer: 'だれでもない人' },
    ]);
    expect(res.statusCode).toBe(400);
    const body = res.json<{ code: string; message: string; issues: object[] }>();
    expect(body.code).toBe('IMPORT_ROWS_INVALID');
    expect(body.message).toContain('row 3 model: is required');
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: 'rows.2.wearer', message: 'this wearer already wears another bracelet' },
        { path: 'rows.3.serialNumber', message: 'must be printable ASCII without spaces' },
        { path: 'rows.3.model', message: 'is required' },
        { path: 'rows.4.serialNumber', message: 'appears more than once in the file' },
        { path: 'rows.4.wearer', message: 'no wearer of this organisation has this name' },
      ]),
    );
    expect(await braceletsCalled([good])).toBe(0);
  });

  it("another organisation's bracelet or wearer is refused, and so is another organisation's role", async () => {
    const theirs = `THEIRS-${short()}`;
    expect(
      (
        await importBracelets(
          'OTHER_ORG_OWNER',
          [{ serialNumber: theirs, model: 'X' }],
          false,
          w.orgB,
        )
      ).statusCode,
    ).toBe(200);
    const clash = await importBracelets('ORGANIZATION_OWNER', [
      { serialNumber: theirs, model: 'X' },
      { serialNumber: `MINE-${short()}`, model: 'X', wearer: w.wB.name },
    ]);
    expect(clash.statusCode).toBe(400);
    expect(clash.json<{ issues: object[] }>().issues).toEqual([
      { path: 'rows.1.serialNumber', message: 'is registered to another organisation' },
      { path: 'rows.2.wearer', message: 'no wearer of this organisation has this name' },
    ]);
    const serial = `NOPE-${short()}`;
    for (const who of ['OTHER_ORG_OWNER', 'GROUP_MANAGER_OTHER_GROUP'] as const) {
      const res = await importBracelets(who, [{ serialNumber: serial, model: 'X' }]);
      expect([403, 404]).toContain(res.statusCode);
    }
    expect(
      (await importBracelets('PERSONAL_LINKED', [{ serialNumber: serial, model: 'X' }])).statusCode,
    ).toBe(403);
    expect(await braceletsCalled([serial])).toBe(0);
  });
});

describe('wearer CSV import', () => {
  it('adds wearers with their reading and group, pairs a bracelet, and a re-import is a no-op', async () => {
    const serial = `WR-${short()}`;
    expect(
      (await importBracelets('ORGANIZATION_OWNER', [{ serialNumber: serial, model: 'MB1' }]))
        .statusCode,
    ).toBe(200);
    const tag = short();
    const rows = [
      {
        name: `佐藤 花子 ${tag}`,
        nameReading: 'さとう はなこ',
        group: groupName,
        birthYear: '1980',
        serialNumber: serial,
      },
      {
        name: `阿部 一郎 ${tag}`,
        nameReading: 'あべ いちろう',
        group: groupName,
        birthYear: '1975-04-02',
      },
    ];
    const preview = await importWearers('ORGANIZATION_OWNER', rows, true);
    expect(preview.json()).toMatchObject({ dryRun: true, created: 2 });
    const mine = () =>
      t.db.query<{ name: string; name_reading: string; birth_date: string; group_id: string }>(
        `SELECT name, name_reading, to_char(birth_date, 'YYYY-MM-DD') AS birth_date, group_id
           FROM users WHERE name LIKE $1 ORDER BY name_reading`,
        [`%${tag}`],
      );
    expect(await mine()).toEqual([]);

    const done = await importWearers('ORGANIZATION_OWNER', rows);
    expect(done.statusCode).toBe(200);
    expect(await mine()).toEqual([
      {
        name: `阿部 一郎 ${tag}`,
        name_reading: 'あべ いちろう',
        birth_date: '1975-04-02',
        group_id: w.g1,
      },
      {
        name: `佐藤 花子 ${tag}`,
        name_reading: 'さとう はなこ',
        birth_date: '1980-01-01',
        group_id: w.g1,
      },
    ]);
    const worn = await t.db.query<{ name: string }>(
      'SELECT u.name FROM bracelets b JOIN users u ON u.id = b.wearer_id WHERE b.serial_number = $1',
      [serial],
    );
    expect(worn).toEqual([{ name: `佐藤 花子 ${tag}` }]);

    const again = await importWearers('ORGANIZATION_OWNER', rows);
    expect(again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(await mine()).toHaveLength(2);

    // The list sorts by the reading: あべ before さとう although 佐藤 < 阿部 by code point.
    const list = await t.app.inject({
      method: 'GET',
      url: `/v2/user/device/list?clientId=${w.orgA}`,
      headers: w.users.ORGANIZATION_OWNER.headers,
    });
    const names = list
      .json<{ devices: { name: string }[] }>()
      .devices.map((d) => d.name)
      .filter((n) => n.endsWith(tag));
    expect(names).toEqual([`阿部 一郎 ${tag}`, `佐藤 花子 ${tag}`]);
  });

  it('bad rows answer 400 naming row and column, and nothing of the file is written', async () => {
    const tag = short();
    const res = await importWearers('ORGANIZATION_OWNER', [
      { name: `良い 行 ${tag}`, group: groupName, birthYear: '1990' },
      { name: '', group: 'ない組', birthYear: '1890', serialNumber: `NONE-${tag}` },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ issues: object[] }>().issues).toEqual([
      { path: 'rows.2.birthYear', message: expect.stringContaining('must be a year') },
      { path: 'rows.2.group', message: 'no group of this organisation has this name' },
      { path: 'rows.2.name', message: 'is required' },
      {
        path: 'rows.2.serialNumber',
        message: 'no bracelet of this organisation has this serial number',
      },
    ]);
    expect(
      await count('SELECT count(*)::int AS n FROM users WHERE name LIKE $1', [`%${tag}`]),
    ).toBe(0);
  });

  it("a group manager may add to their group only; another organisation's owner is refused", async () => {
    const tag = short();
    const rows = [{ name: `班長 ${tag}`, group: groupName, birthYear: '1985' }];
    expect((await importWearers('GROUP_MANAGER_OTHER_GROUP', rows)).json()).toMatchObject({
      issues: [{ path: 'rows.1.group', message: 'you may not add wearers to this group' }],
    });
    expect((await importWearers('OTHER_ORG_OWNER', rows)).statusCode).toBe(404);
    expect((await importWearers('ORGANIZATION_GROUP', rows)).statusCode).toBe(200);
  });
});

describe('a file of the most rows allowed', () => {
  it('is previewed, imported and re-imported (a no-op) in one request each', async () => {
    const tag = short();
    const rows = Array.from({ length: IMPORT_ROW_LIMIT }, (_, i) => ({
      serialNumber: `BULK-${tag}-${i}`,
      model: 'MB1',
    }));
    const timed = async (dryRun: boolean) => {
      const started = performance.now();
      const res = await importBracelets('ORGANIZATION_OWNER', rows, dryRun);
      const ms = Math.round(performance.now() - started);
      console.info(`${IMPORT_ROW_LIMIT} bracelet rows, dryRun=${dryRun}: ${ms} ms`);
      return res;
    };
    expect((await timed(true)).json()).toMatchObject({ created: IMPORT_ROW_LIMIT });
    expect((await timed(false)).json()).toMatchObject({ created: IMPORT_ROW_LIMIT });
    expect((await timed(false)).json()).toMatchObject({ unchanged: IMPORT_ROW_LIMIT });
    expect(await braceletsCalled(rows.map((r) => r.serialNumber))).toBe(IMPORT_ROW_LIMIT);
  }, 120_000);
});
