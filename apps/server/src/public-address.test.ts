import { describe, expect, it } from 'vitest';
import { linksReachOnlyThisMachine, mqttBrokerAddress } from './public-address.js';

describe('what the dialogs hand to another device', () => {
  it('a PUBLIC_URL naming this machine reaches only it', () => {
    for (const url of [
      'http://localhost:4100',
      'http://127.0.0.1:4100',
      'http://[::1]:4100',
      'http://a.localhost',
    ])
      expect(linksReachOnlyThisMachine({ publicUrl: url }), url).toBe(true);
    for (const url of ['https://console.example.jp', 'http://192.168.1.20:4100'])
      expect(linksReachOnlyThisMachine({ publicUrl: url }), url).toBe(false);
  });

  it('the broker is the one the server really takes MQTT on', () => {
    const publicUrl = 'https://console.example.jp';
    // The embedded broker on MQTT_PORT, at PUBLIC_URL's host.
    expect(mqttBrokerAddress({ publicUrl, mqttUrl: undefined, mqttPort: 4110 })).toEqual({
      host: 'console.example.jp',
      port: 4110,
    });
    // MQTT_PORT=0 and no MQTT_URL: no MQTT at all.
    expect(mqttBrokerAddress({ publicUrl, mqttUrl: undefined, mqttPort: 0 })).toBeNull();
    // An external broker: its own host and port (default 1883, 8883 for TLS)...
    expect(
      mqttBrokerAddress({ publicUrl, mqttUrl: 'mqtts://broker.example.jp', mqttPort: 4110 }),
    ).toEqual({ host: 'broker.example.jp', port: 8883 });
    expect(
      mqttBrokerAddress({ publicUrl, mqttUrl: 'mqtt://broker.example.jp:11883', mqttPort: 4110 }),
    ).toEqual({ host: 'broker.example.jp', port: 11883 });
    // ... unless it runs beside the server: then the gateways reach it at the server's public host.
    expect(
      mqttBrokerAddress({ publicUrl, mqttUrl: 'mqtt://127.0.0.1:1883', mqttPort: 4110 }),
    ).toEqual({ host: 'console.example.jp', port: 1883 });
  });
});
