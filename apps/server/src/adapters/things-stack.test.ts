// Vectors: the "Uplink message example" of The Things Stack data formats
// (TheThingsIndustries/lorawan-stack-docs doc/content/integrations/data-formats/_index.md), with its
// frm_payload swapped for a Lansitec bracelet message where the test says so (layout: lansitec.test.ts).
import { describe, expect, it } from 'vitest';
import { decodeThingsStack } from './things-stack.js';

const receivedAt = new Date('2026-11-26T03:00:00.000Z');
const UPLINK = {
  end_device_ids: {
    device_id: 'dev1',
    application_ids: { application_id: 'app1' },
    dev_eui: '0004A30B001C0530',
    join_eui: '800000000000000C',
    dev_addr: '00BCB929',
  },
  correlation_ids: ['as:up:01E0WZGT6Y7657CPFPE5WEYDSQ'],
  received_at: '2020-02-12T15:15:46.014773143Z',
  uplink_message: {
    session_key_id: 'AXA50tHUGUucuzS/bCGMNw==',
    f_cnt: 1,
    frm_payload: 'gkHe',
    decoded_payload: { temperature: 1.0, luminosity: 0.64 },
    rx_metadata: [
      {
        gateway_ids: { gateway_id: 'gtw1', eui: '9C5C8E00001A05C4' },
        time: '2020-02-12T15:15:45.787Z',
        timestamp: 2463457000,
        rssi: -35,
        channel_rssi: -35,
        snr: 5,
        uplink_token: 'ChIKEAoEZ3R3MRIInFyOAAAaBcQQ6L3Vlgk=',
        channel_index: 2,
      },
    ],
    settings: {
      data_rate: { lora: { bandwidth: 125000, spreading_factor: 7 } },
      data_rate_index: 5,
      coding_rate: '4/6',
      frequency: '868300000',
    },
    received_at: '2020-02-12T15:15:45.789585559Z',
  },
};
const BRACELET = Buffer.from(
  '91' + 'C0A1B2C3D4E5' + '48' + '04D2' + '55' + '78' + '50' + '0064' + 'AA' + '01' + '20',
  'hex',
);

describe('decodeThingsStack', () => {
  it('takes the documented uplink as a sighting of the device with its RSSI', () => {
    const out = decodeThingsStack(UPLINK, receivedAt);
    expect(out.refused).toEqual([]);
    expect(out.sightings).toEqual([
      { deviceId: '0004A30B001C0530', rssi: -35, at: '2020-02-12T15:15:45.789Z', frame: 'lorawan' },
    ]);
  });

  it('reads a Lansitec bracelet message with its time offset', () => {
    const body = {
      ...UPLINK,
      uplink_message: { ...UPLINK.uplink_message, frm_payload: BRACELET.toString('base64') },
    };
    const out = decodeThingsStack(body, receivedAt);
    expect(out.readings).toEqual([
      { serialNumber: 'C0A1B2C3D4E5', at: '2020-02-12T15:15:43.789Z', heartRate: 72, battery: 85 },
    ]);
    expect(out.events.map((e) => e.type)).toEqual(['SOS']);
  });

  it('accepts other messages of an end device and refuses what is not one', () => {
    const join = {
      end_device_ids: UPLINK.end_device_ids,
      join_accept: { session_key_id: 'AXBSH1Pk6Z0G166' },
    };
    expect(decodeThingsStack(join, receivedAt).refused).toEqual([]);
    const cases: [unknown, string][] = [
      [
        { uplink_message: UPLINK.uplink_message },
        'not a The Things Stack message: end_device_ids is missing',
      ],
      [
        { ...UPLINK, end_device_ids: { device_id: 'dev1' } },
        'end_device_ids.dev_eui is missing or not 16 hex digits',
      ],
      [{ ...UPLINK, uplink_message: 'gkHe' }, 'uplink_message is not an object'],
      [
        { ...UPLINK, uplink_message: { ...UPLINK.uplink_message, frm_payload: 'gk!e' } },
        'uplink_message.frm_payload is not base64',
      ],
      [
        { ...UPLINK, uplink_message: { ...UPLINK.uplink_message, received_at: 42 } },
        'received_at 42 is not a time',
      ],
    ];
    for (const [body, reason] of cases) {
      expect(decodeThingsStack(body, receivedAt).refused).toEqual([{ item: null, reason }]);
    }
  });
});
