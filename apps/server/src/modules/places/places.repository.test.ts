import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.js';
import { createOrganization, createWearer } from '../../testing/factories.js';
import { openTestDb } from '../../testing/test-db.js';
import { savePlacesStatement } from './places.repository.js';

describe('the place states a batch writes (wearer_places), on this database', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(() => db.close());

  const stored = (ids: string[]) =>
    db.query<{ wearerId: string; state: unknown; position: unknown }>(
      `SELECT wearer_id AS "wearerId", state, position FROM wearer_places
        WHERE wearer_id = ANY($1::text[]) ORDER BY wearer_id`,
      [ids],
    );
  const save = async (
    organizationId: string,
    rows: { wearerId: string; state: unknown; position?: unknown }[],
  ) => {
    const s = savePlacesStatement(
      organizationId,
      rows.map((r) => ({
        wearerId: r.wearerId,
        stateJson: JSON.stringify(r.state),
        positionJson: r.position === undefined ? null : JSON.stringify(r.position),
      })),
    );
    if (s) await db.query(s.text, s.params);
  };

  it('inserts, then updates the state and keeps the stored position when the batch brings none', async () => {
    const org = await createOrganization(db);
    const [a, b] = [
      await createWearer(db, { organizationId: org.id }),
      await createWearer(db, { organizationId: org.id }),
    ];
    if (!a || !b) throw new Error('no wearers');
    // Text that a text[] literal or a JSON string must escape: quotes, a backslash, Japanese.
    const gatewayId = 'gw "東棟\\2F"';
    const position = { latitude: 35.1, longitude: 139.2, accuracy: 20, at: 1_000, gatewayId };
    const first = {
      current: gatewayId,
      since: 1_000,
      heard: [{ gatewayId, rssi: -60, lastAt: 1_000 }],
    };
    await save(org.id, [
      { wearerId: a.uid, state: first, position },
      { wearerId: b.uid, state: first },
    ]);
    const second = { ...first, heard: [{ gatewayId, rssi: -58.5, lastAt: 61_000 }] };
    await save(org.id, [
      { wearerId: a.uid, state: second },
      { wearerId: b.uid, state: second },
    ]);
    const rows = await stored([a.uid, b.uid]);
    const byId = new Map(rows.map((r) => [r.wearerId, r]));
    expect(byId.get(a.uid)).toEqual({ wearerId: a.uid, state: second, position });
    expect(byId.get(b.uid)).toEqual({ wearerId: b.uid, state: second, position: null });
  });

  it('nothing changed: no statement', () => {
    expect(savePlacesStatement('org', [])).toBeNull();
  });
});
