import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTOR_NAMES,
  type ActorName,
  type World,
  buildWorld,
  insertAlert,
} from '../../testing/world.js';
import { createWearer } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { csvCell } from './alerts-csv.js';

let t: TestApp;
let w: World;
let alertId: string;
let evilAlert: string;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  alertId = await insertAlert(t.db, w.w1, {
    type: 'SOS_CALL',
    openedAt: new Date('2026-07-01T05:03:00Z'),
  });
  const evil = await createWearer(t, {
    organizationId: w.orgA,
    groupId: w.g2,
    name: '=HYPERLINK("http://x","a, b")',
  });
  evilAlert = await insertAlert(t.db, evil, { type: 'HEART_RATE' });
});
afterAll(() => t.close());

const csv = (who: ActorName, q = '') =>
  t.app.inject({ url: `/v2/alert/listCsv?clientId=${w.orgA}${q}`, headers: w.users[who].headers });

describe('GET /v2/alert/listCsv', () => {
  it('is UTF-8 CSV with a BOM, Japanese headers and labels, and a dated attachment name', async () => {
    const res = await csv('ORGANIZATION_OWNER');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="alerts-\d{8}\.csv"$/,
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body.slice(1).split('\r\n');
    expect(lines[0]).toMatch(/^アラートID,発生日時,種別,レベル,状態/);
    const row = lines.find((l) => l.startsWith(alertId));
    // 05:03 UTC is 14:03 in Tokyo, the organisation's zone.
    expect(row).toContain('2026/07/01 14:03,SOS発信,緊急,発生中');
    expect(row).toContain(w.w1.name);
  });

  it('?lng=en gives English headers and labels', async () => {
    const res = await csv('ORGANIZATION_OWNER', '&lng=en');
    expect(res.body.slice(1).split('\r\n')[0]).toMatch(/^Alert ID,Opened at,Type,Level,Status/);
    expect(res.body).toContain('"1 Jul 2026, 14:03",SOS call,Emergency,Open');
  });

  it("dates the file name in the organisation's zone, not UTC", async () => {
    const realNow = t.ctx.now;
    // 16:30 UTC on 30 June is already 1 July in Tokyo.
    t.ctx.now = () => new Date('2026-06-30T16:30:00Z');
    try {
      const res = await csv('ORGANIZATION_OWNER');
      expect(res.headers['content-disposition']).toBe('attachment; filename="alerts-20260701.csv"');
      // An empty export is dated in the reader's organisation's zone too.
      const empty = await csv(
        'ORGANIZATION_OWNER',
        '&from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z',
      );
      expect(empty.headers['content-disposition']).toBe(
        'attachment; filename="alerts-20260701.csv"',
      );
    } finally {
      t.ctx.now = realNow;
    }
  });

  it('neutralises formulas and quotes commas and quotes', async () => {
    const res = await csv('ORGANIZATION_OWNER');
    const row = res.body.split('\r\n').find((l) => l.startsWith(evilAlert));
    expect(row).toContain(`"'=HYPERLINK(""http://x"",""a, b"")"`);
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+81', "'+81"],
    ['-3', "'-3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['a"b', '"a""b"'],
    ['line\nbreak', '"line\nbreak"'],
    ['plain', 'plain'],
  ])('csvCell(%j) is %j', (input, out) => {
    expect(csvCell(input)).toBe(out);
  });

  it.each(ACTOR_NAMES)('%s gets only what the list shows it', async (who) => {
    const res = await csv(who);
    expect(res.statusCode).toBe(200);
    const sees = [
      'ALL_OWNER',
      'ALL_GENERAL',
      'ORGANIZATION_OWNER',
      'ORGANIZATION_GENERAL',
      'ORGANIZATION_GROUP',
      'PERSONAL_LINKED',
      'PERSONAL_SELF',
    ];
    expect(res.body.includes(alertId)).toBe(sees.includes(who));
  });

  it('bad lng is a 400 naming it', async () => {
    const res = await csv('ORGANIZATION_OWNER', '&lng=fr');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('querystring.lng');
  });
});
