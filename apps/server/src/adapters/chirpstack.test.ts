// Vectors: the `up` event example of chirpstack-docs src/chirpstack/integrations/events.md (ChirpStack v4),
// with its FRMPayload swapped for a Lansitec bracelet message where the test says so (layout: lansitec.test.ts).
import { describe, expect, it } from 'vitest';
import { decodeChirpstack } from './chirpstack.js';

const receivedAt = new Date('2026-11-26T03:00:00.000Z');
const UP = {
  deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  time: '2022-07-18T09:34:15.775023242+00:00',
  deviceInfo: {
    tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
    tenantName: 'ChirpStack',
    applicationId: '17c82e96-be03-4f38-aef3-f83d48582d97',
    applicationName: 'Test application',
    deviceProfileId: '14855bf7-d10d-4aee-b618-ebfcb64dc7ad',
    deviceProfileName: 'Test device-profile',
    deviceName: 'Test device',
    devEui: '0101010101010101',
    tags: { key: 'value' },
  },
  devAddr: '00189440',
  dr: 1,
  fPort: 1,
  data: 'qg==',
  rxInfo: [
    {
      gatewayId: '0016c001f153a14c',
      uplinkId: 4217106255,
      rssi: -36,
      snr: 10.5,
      context: 'E3OWOQ==',
      metadata: { region_name: 'eu868', region_common_name: 'EU868' },
    },
  ],
  txInfo: {
    frequency: 867100000,
    modulation: { lora: { bandwidth: 125000, spreadingFactor: 11, codeRate: 'CR_4_5' } },
  },
};
const SOS_BRACELET = Buffer.from(
  '91' + 'C0A1B2C3D4E5' + '48' + '04D2' + '55' + '78' + '50' + '0064' + 'AA' + '01' + '00',
  'hex',
);

describe('decodeChirpstack', () => {
  it('takes the documented up event as a sighting of the device with its strongest RSSI', () => {
    const out = decodeChirpstack('up', UP, receivedAt);
    expect(out.refused).toEqual([]);
    expect(out.sightings).toEqual([
      { deviceId: '0101010101010101', rssi: -36, at: '2022-07-18T09:34:15.775Z', frame: 'lorawan' },
    ]);
  });

  it('reads a Lansitec bracelet message: heart rate, battery and SOS', () => {
    const out = decodeChirpstack(
      'up',
      { ...UP, data: SOS_BRACELET.toString('base64') },
      receivedAt,
    );
    expect(out.readings).toEqual([
      { serialNumber: 'C0A1B2C3D4E5', at: '2022-07-18T09:34:15.775Z', heartRate: 72, battery: 85 },
    ]);
    expect(out.events).toEqual([
      { serialNumber: 'C0A1B2C3D4E5', type: 'SOS', at: '2022-07-18T09:34:15.775Z' },
    ]);
  });

  it('accepts the other events without output', () => {
    for (const event of ['status', 'join', 'ack', 'txack', 'log', 'location', 'integration']) {
      expect(decodeChirpstack(event, { deviceInfo: UP.deviceInfo }, receivedAt)).toEqual({
        readings: [],
        events: [],
        sightings: [],
        stepTotals: [],
        refused: [],
      });
    }
  });

  it('refuses missing fields, bad base64 and bad times with their reasons', () => {
    const { deviceInfo: _unused, ...withoutDevice } = UP;
    const cases: [unknown, string][] = [
      [withoutDevice, 'deviceInfo.devEui is missing or not 16 hex digits'],
      [
        { ...UP, deviceInfo: { devEui: '0101' } },
        'deviceInfo.devEui is missing or not 16 hex digits',
      ],
      [{ ...UP, data: 'q*==' }, 'data is not base64'],
      [{ ...UP, time: 'yesterday' }, 'time yesterday is not a time'],
      [[UP], 'up event is not a JSON object (set the integration’s payload encoding to JSON)'],
    ];
    for (const [body, reason] of cases) {
      expect(decodeChirpstack('up', body, receivedAt).refused).toEqual([{ item: null, reason }]);
    }
  });
});
