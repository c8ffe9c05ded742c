import { describe, expect, it } from 'vitest';
import { mapAnswerOf } from '../testing/map-answers.js';
import { decodeMapPeople, type MapPerson, mapResponse } from './map.js';

const gateways = [
  { gatewayId: 'gw-room', name: '2階 203号室', siteId: 'site-1', siteName: '本館' },
  { gatewayId: 'gw-phone', name: 'スマートフォン', siteId: null, siteName: null },
];
const people: MapPerson[] = [
  {
    wearerId: 'w-1',
    name: '佐藤 花子',
    groupId: 'g-1',
    place: { kind: 'gateway', gatewayId: 'gw-room', since: '2026-11-26T05:02:00.000Z' },
    alert: {
      alertId: 'a-1',
      type: 'SOS_CALL',
      level: 'EMERGENCY',
      openedAt: '2026-11-26T05:09:00.000Z',
    },
  },
  {
    wearerId: 'w-2',
    name: '山田 歩',
    groupId: null,
    place: {
      kind: 'position',
      latitude: 35.6812,
      longitude: 139.7671,
      accuracy: 12,
      at: '2026-11-26T05:09:30.000Z',
      gatewayId: 'gw-phone',
    },
    alert: null,
  },
  {
    wearerId: 'w-3',
    name: '鈴木 次郎',
    groupId: 'g-1',
    place: { kind: 'last-heard', gatewayId: 'gw-room', at: '2026-11-26T03:00:00.000Z' },
    alert: null,
  },
  { wearerId: 'w-4', name: 'Ann Lee', groupId: null, place: { kind: 'unknown' }, alert: null },
  { wearerId: 'w-5', name: '田中 一郎', groupId: 'g-1', place: { kind: 'withheld' }, alert: null },
];

describe("the map answer's rows", () => {
  const answer = mapAnswerOf({
    generatedAt: '2026-11-26T05:10:00.000Z',
    tiles: null,
    placesOnlyDuringAlerts: false,
    groups: [{ groupId: 'g-1', name: 'さくら棟' }],
    gateways,
    people,
  });

  it('carry every fact of a person, gateways and groups by index, times in ms', () => {
    expect(mapResponse.parse(answer)).toEqual(answer);
    expect(answer.people[0]).toEqual([
      'w-1',
      '佐藤 花子',
      0,
      ['gateway', 0, Date.parse('2026-11-26T05:02:00.000Z')],
      ['a-1', 'SOS_CALL', 'EMERGENCY', Date.parse('2026-11-26T05:09:00.000Z')],
    ]);
    expect(answer.people[4]).toEqual(['w-5', '田中 一郎', 0, ['withheld'], null]);
    expect(decodeMapPeople(answer)).toEqual(people);
  });

  it('refuse a place kind or a gateway that is not there', () => {
    const bad = { ...answer, people: [['w-9', 'X', null, ['nearby', 0, 1], null]] };
    expect(mapResponse.safeParse(bad).success).toBe(false);
    expect(() =>
      decodeMapPeople({ ...answer, people: [['w-9', 'X', null, ['gateway', 7, 1], null]] }),
    ).toThrow(/gateway 7/);
  });
});
