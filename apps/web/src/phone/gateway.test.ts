import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { choosePhoneCarrier, listPhoneWearers, reportPhoneDeliveryFailure } from '@wearable/domain';
import { PHONE_CARRIER, PHONE_WEARERS } from './carrier-call';
import { PhoneGateway, readOrgSettings, telLink } from './gateway';
import { DELIVERY_FAILURE_URL } from './outbox';
import { type Db, type Enrolment, getKv, openPhoneDb, setKv } from './store';

// Man-down follows the organisation (issue 16): its alert policy's manDownMinutes reaches the phone in
// the enrolment answer and in every batch result; the phone watches with those minutes, or not at all.

const ENROLMENT: Enrolment = {
  gatewayId: 'gw-1',
  credential: 'secret',
  organization: { id: 'org-1', name: 'Org' },
  group: null,
  gatewayName: 'Phone 1',
  enrolledAt: '2026-11-26T09:00:00.000Z',
};

class FakeDeviceMotionEvent extends Event {}

/** A server whose batch results carry `gatewaySettings` as the test sets it; it records each batch. */
function server() {
  const state = {
    settings: undefined as unknown,
    batches: [] as Record<string, unknown>[],
    /** The batch result's `rejected` for the next batches (the SOS refusal of the report). */
    rejected: [] as unknown[],
    carrier: {
      shared: false,
      wearer: { id: 'wr-1', name: '山田 太郎' },
      serialNumber: 'PHONE-gw-2',
    },
    reports: [] as unknown[],
    chosen: [] as unknown[],
  };
  const fetch = vi.fn(async (url: unknown, init?: RequestInit) => {
    if (url === PHONE_WEARERS.path)
      return new Response(
        JSON.stringify({
          wearers: [
            { id: 'wr-1', name: '山田 太郎' },
            { id: 'wr-2', name: '佐藤 花子' },
          ],
        }),
        { status: 200 },
      );
    const body = JSON.parse(init?.body as string) as Record<string, unknown>;
    if (url === DELIVERY_FAILURE_URL) {
      state.reports.push(body);
      return new Response(null, { status: 204 });
    }
    if (url === PHONE_CARRIER.path) {
      state.chosen.push(body);
      return new Response(
        JSON.stringify({
          shared: true,
          wearer: { id: body.wearerId, name: '佐藤 花子' },
          serialNumber: 'PHONE-gw-2',
        }),
        { status: 200 },
      );
    }
    if (url === '/v2/phone/enrol')
      return new Response(
        JSON.stringify({
          gatewayId: 'gw-2',
          credential: 'fresh',
          organization: { id: 'org-1', name: 'Org' },
          group: null,
          gatewayName: 'Phone 2',
          settings: state.settings,
          carrier: state.carrier,
        }),
        { status: 200 },
      );
    state.batches.push(body);
    return new Response(
      JSON.stringify({
        accepted: state.rejected.length > 0 ? 0 : 1,
        duplicates: 0,
        rejected: state.rejected,
        ...(state.settings !== undefined ? { gatewaySettings: state.settings } : {}),
      }),
      { status: 200 },
    );
  });
  return { state, fetch };
}

let dbCount = 0;
let srv: ReturnType<typeof server>;
const realFetch = globalThis.fetch;
beforeEach(() => {
  srv = server();
  globalThis.fetch = srv.fetch;
  vi.stubGlobal('DeviceMotionEvent', FakeDeviceMotionEvent);
});
afterEach(() => {
  globalThis.fetch = realFetch;
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.location.hash = '';
});

async function enrolledDb(): Promise<Db> {
  const db = await openPhoneDb(`gateway-test-${++dbCount}`);
  await setKv(db, 'enrolment', ENROLMENT);
  return db;
}

/** One pairing waiting, so the outbox sends a batch as soon as it starts and reads its result. */
const queueOne = (db: Db) =>
  db.add('items', {
    list: 'pairings',
    urgent: false,
    item: { serialNumber: 'HRM-1-abc', at: new Date().toISOString() },
  });

async function started(db: Db): Promise<PhoneGateway> {
  const gateway = new PhoneGateway(db);
  await gateway.start();
  return gateway;
}

/** A still phone lying flat: |a| = 1 g, no turn. `t` is the event's time stamp (ms, performance clock). */
function still(t: number): Event {
  const event = new FakeDeviceMotionEvent('devicemotion');
  Object.defineProperty(event, 'timeStamp', { value: t });
  Object.defineProperty(event, 'accelerationIncludingGravity', {
    value: { x: 0, y: 0, z: 9.80665 },
  });
  return event;
}

describe('readOrgSettings', () => {
  it('takes 0..60 whole minutes and nothing else', () => {
    expect(readOrgSettings({ manDownMinutes: 0 })).toEqual({
      manDownMinutes: 0,
      emergencyPhone: null,
    });
    expect(readOrgSettings({ manDownMinutes: 60 })).toEqual({
      manDownMinutes: 60,
      emergencyPhone: null,
    });
    for (const bad of [61, -1, 2.5, '5', null])
      expect(readOrgSettings({ manDownMinutes: bad })).toBeNull();
    expect(readOrgSettings(undefined)).toBeNull();
  });
});

describe("the phone's man-down follows the organisation", () => {
  it('does not watch while the organisation has not said, nor when it says off', async () => {
    const db = await enrolledDb();
    srv.state.settings = { manDownMinutes: 0 };
    const gateway = await started(db);
    expect(gateway.snapshot().orgSettings).toBeNull();
    expect(gateway.snapshot().motion).toBe('off');

    await queueOne(db);
    await gateway.followOrganisation({ manDownMinutes: 0 });
    expect(gateway.snapshot().orgSettings).toEqual({ manDownMinutes: 0, emergencyPhone: null });
    expect(gateway.manDownMinutes()).toBe(0);
    expect(gateway.snapshot().motion).toBe('off');
  });

  it("a batch result turns it on with the organisation's minutes: after them still and an unanswered countdown, FALL says why", async () => {
    const db = await enrolledDb();
    srv.state.settings = { manDownMinutes: 2 };
    await queueOne(db);
    const gateway = await started(db);
    await vi.waitFor(() =>
      expect(gateway.snapshot().orgSettings).toEqual({ manDownMinutes: 2, emergencyPhone: null }),
    );
    await vi.waitFor(() => expect(gateway.snapshot().motion).toBe('on'));
    expect(await getKv(db, 'orgSettings')).toEqual({ manDownMinutes: 2, emergencyPhone: null });

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const t0 = performance.now();
    for (let s = 1; s <= 119; s += 1) window.dispatchEvent(still(t0 + s * 1000));
    expect(gateway.snapshot().countdown).toBeNull();
    for (let s = 120; s <= 125; s += 1) window.dispatchEvent(still(t0 + s * 1000));
    expect(gateway.snapshot().countdown).toMatchObject({ kind: 'manDown', minutes: 2 });

    vi.advanceTimersByTime(30_000);
    await vi.waitFor(async () => {
      const items = await db.getAll('items');
      expect(items.map((i) => i.item)).toEqual([
        expect.objectContaining({
          type: 'FALL',
          cause: { trigger: 'man-down', stillMinutes: 2 },
        }),
      ]);
    });
    expect(gateway.snapshot().lastEvent).toMatchObject({
      type: 'FALL',
      cause: { trigger: 'man-down', stillMinutes: 2 },
    });
  });

  it('the organisation turning it off stops the watch and any man-down countdown; a reload keeps what it said', async () => {
    const db = await enrolledDb();
    const gateway = await started(db);
    await gateway.followOrganisation({ manDownMinutes: 1 });
    expect(gateway.snapshot().motion).toBe('on');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const t0 = performance.now();
    for (let s = 1; s <= 65; s += 1) window.dispatchEvent(still(t0 + s * 1000));
    expect(gateway.snapshot().countdown).toMatchObject({ kind: 'manDown', minutes: 1 });

    await gateway.followOrganisation({ manDownMinutes: 0 });
    expect(gateway.snapshot().countdown).toBeNull();
    expect(gateway.snapshot().motion).toBe('off');
    vi.advanceTimersByTime(60_000);
    vi.useRealTimers();
    expect(await db.getAll('items')).toEqual([]);

    await gateway.followOrganisation({ manDownMinutes: 7 });
    const reloaded = await started(db);
    expect(reloaded.snapshot().orgSettings).toEqual({ manDownMinutes: 7, emergencyPhone: null });
    expect(reloaded.manDownMinutes()).toBe(7);
    expect(reloaded.snapshot().motion).toBe('on');
  });

  it('ignores settings that are not 0..60 whole minutes', async () => {
    const gateway = await started(await enrolledDb());
    await gateway.followOrganisation({ manDownMinutes: 5 });
    await gateway.followOrganisation({ manDownMinutes: 500 });
    await gateway.followOrganisation('on');
    expect(gateway.manDownMinutes()).toBe(5);
  });

  it('an enrolment answer carries the setting; it is kept apart from the enrolment', async () => {
    const db = await openPhoneDb(`gateway-test-${++dbCount}`);
    srv.state.settings = { manDownMinutes: 10 };
    window.location.hash = '#enrol=abcdefghijklmnopqrstuvwxyz012345';
    const gateway = await started(db);
    expect(gateway.snapshot().enrolment).toMatchObject({ gatewayId: 'gw-2' });
    expect(gateway.snapshot().orgSettings).toEqual({ manDownMinutes: 10, emergencyPhone: null });
    expect(gateway.snapshot().motion).toBe('on');
    expect(await getKv(db, 'enrolment')).not.toHaveProperty('settings');
    expect(await getKv(db, 'orgSettings')).toEqual({ manDownMinutes: 10, emergencyPhone: null });
  });
});

describe('the phone says "sent" only for what the server accepted (issue 34)', () => {
  it('the phone calls the endpoints of the contracts', () => {
    expect(PHONE_WEARERS.id).toBe(listPhoneWearers.id);
    expect(PHONE_CARRIER.id).toBe(choosePhoneCarrier.id);
    expect(DELIVERY_FAILURE_URL).toBe(reportPhoneDeliveryFailure.path);
  });

  async function sos(gateway: PhoneGateway) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    gateway.startSosCountdown();
    await vi.advanceTimersByTimeAsync(5_000);
    vi.useRealTimers();
  }

  it('an SOS the server refuses (unknown bracelet) is a failure, never "sent", and staff are told', async () => {
    const db = await enrolledDb();
    srv.state.rejected = [{ list: 'events', index: 0, reason: 'unknown bracelet PHONE-gw-1' }];
    const gateway = await started(db);
    await sos(gateway);
    await vi.waitFor(() =>
      expect(gateway.snapshot().lastEvent).toMatchObject({
        type: 'SOS',
        delivery: 'failed',
        reason: 'unknown bracelet PHONE-gw-1',
      }),
    );
    expect(gateway.snapshot().failureDismissed).toBe(false);
    await vi.waitFor(() =>
      expect(srv.state.reports).toEqual([
        expect.objectContaining({ type: 'SOS', reason: 'unknown bracelet PHONE-gw-1' }),
      ]),
    );
    gateway.dismissFailure();
    expect(gateway.snapshot().failureDismissed).toBe(true);
    expect(gateway.snapshot().lastEvent?.delivery).toBe('failed');
  });

  it('an SOS the server accepts is "sent", after "sending"', async () => {
    const db = await enrolledDb();
    const gateway = await started(db);
    const seen: string[] = [];
    gateway.subscribe(() => {
      const d = gateway.snapshot().lastEvent?.delivery;
      if (d && seen.at(-1) !== d) seen.push(d);
    });
    await sos(gateway);
    await vi.waitFor(() => expect(gateway.snapshot().lastEvent?.delivery).toBe('sent'));
    expect(seen).toEqual(['sending', 'sent']);
    expect(srv.state.reports).toEqual([]);
  });

  it('a phone enrolled for a wearer sends its SOS for the serial the server named', async () => {
    const db = await openPhoneDb(`gateway-test-${++dbCount}`);
    srv.state.settings = { manDownMinutes: 0 };
    window.location.hash = '#enrol=abcdefghijklmnopqrstuvwxyz012345';
    const gateway = await started(db);
    expect(gateway.snapshot().enrolment?.carrier?.wearer?.name).toBe('山田 太郎');
    expect(gateway.wearerSerial()).toBe('PHONE-gw-2');
    expect(gateway.needsCarrier()).toBe(false);
    await sos(gateway);
    await vi.waitFor(() => expect(gateway.snapshot().lastEvent?.delivery).toBe('sent'));
    const events = srv.state.batches.flatMap((b) => (b.events as { serialNumber: string }[]) ?? []);
    expect(events).toEqual([expect.objectContaining({ serialNumber: 'PHONE-gw-2', type: 'SOS' })]);
  });

  it('a shared phone asks who carries it, and keeps the choice', async () => {
    const db = await openPhoneDb(`gateway-test-${++dbCount}`);
    srv.state.carrier = { shared: true, wearer: null, serialNumber: 'PHONE-gw-2' } as never;
    srv.state.settings = { manDownMinutes: 0 };
    window.location.hash = '#enrol=abcdefghijklmnopqrstuvwxyz012345';
    const gateway = await started(db);
    expect(gateway.needsCarrier()).toBe(true);
    await vi.waitFor(() => expect(gateway.snapshot().wearers).toHaveLength(2));
    await gateway.chooseCarrier('wr-2');
    expect(srv.state.chosen).toEqual([{ wearerId: 'wr-2' }]);
    expect(gateway.needsCarrier()).toBe(false);
    expect((await getKv(db, 'enrolment'))?.carrier).toEqual({
      shared: true,
      wearer: { id: 'wr-2', name: '佐藤 花子' },
      serialNumber: 'PHONE-gw-2',
    });
  });

  it("reads the organisation's emergency number and makes a tel: link of it", () => {
    expect(readOrgSettings({ manDownMinutes: 0, emergencyPhone: '03-1234-5678' })).toEqual({
      manDownMinutes: 0,
      emergencyPhone: '03-1234-5678',
    });
    expect(readOrgSettings({ manDownMinutes: 0, emergencyPhone: 'javascript:x' })).toEqual({
      manDownMinutes: 0,
      emergencyPhone: null,
    });
    expect(telLink('03-1234 5678')).toBe('tel:0312345678');
    expect(telLink('+81 3 1234 5678')).toBe('tel:+81312345678');
  });
});
