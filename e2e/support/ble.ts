import type { Browser, CDPSession, Page } from '@playwright/test';

/*
 * An emulated Bluetooth heart-rate band in the real Chromium (shared/design/DEVICE-TESTING.md): the browser-level
 * DevTools session runs BluetoothEmulation (an adapter, a preconnected peripheral with the Heart Rate service, its
 * Heart Rate Measurement characteristic and its CCCD), the page session answers the device chooser (DeviceAccess).
 * There is no command to push a notification: each read the page makes is answered with the next value, and a
 * read fires `characteristicvaluechanged` exactly as a notification does. Chromium on Linux needs
 * `--enable-features=WebBluetooth` (BAND_LAUNCH_ARGS) for navigator.bluetooth to exist at all.
 */

export const BAND_LAUNCH_ARGS = ['--enable-features=WebBluetooth'];

const uuid = (n: number) => `0000${n.toString(16).padStart(4, '0')}-0000-1000-8000-00805f9b34fb`;

/** Heart Rate Measurement: flags 0x06 (uint8 value, sensor contact supported and detected), then bpm. */
export const heartRateBytes = (bpm: number) => Buffer.from([0x06, bpm]).toString('base64');

export class EmulatedBand {
  /** Values the page has read (each one became a `characteristicvaluechanged`). */
  reads = 0;
  /** Connections the page asked for (the first one and every reconnection attempt). */
  connectionAttempts = 0;
  /** While false, connection attempts are refused (a band out of range). */
  inRange = true;
  private characteristicId = '';

  private constructor(
    private readonly session: CDPSession,
    private readonly page: Page,
    readonly address: string,
    private readonly bpm: () => number,
  ) {}

  static async create(
    browser: Browser,
    page: Page,
    { address = '09:09:09:09:09:01', name = 'HRM-1', bpm = () => 72 } = {},
  ): Promise<EmulatedBand> {
    const session = await browser.newBrowserCDPSession();
    const band = new EmulatedBand(session, page, address, bpm);
    await session.send(
      'BluetoothEmulation.enable' as never,
      {
        state: 'powered-on',
        leSupported: true,
      } as never,
    );
    await session.send(
      'BluetoothEmulation.simulatePreconnectedPeripheral' as never,
      {
        address,
        name,
        manufacturerData: [],
        knownServiceUuids: [uuid(0x180d)],
      } as never,
    );
    const { serviceId } = (await session.send(
      'BluetoothEmulation.addService' as never,
      {
        address,
        serviceUuid: uuid(0x180d),
      } as never,
    )) as { serviceId: string };
    const { characteristicId } = (await session.send(
      'BluetoothEmulation.addCharacteristic' as never,
      {
        serviceId,
        characteristicUuid: uuid(0x2a37),
        properties: { notify: true, read: true },
      } as never,
    )) as { characteristicId: string };
    band.characteristicId = characteristicId;
    await session.send(
      'BluetoothEmulation.addDescriptor' as never,
      {
        characteristicId,
        descriptorUuid: uuid(0x2902),
      } as never,
    );

    const on = (event: string, handle: (params: Record<string, string>) => Promise<unknown>) =>
      session.on(
        event as never,
        ((params: Record<string, string>) => {
          handle(params).catch(() => undefined);
        }) as never,
      );
    on('BluetoothEmulation.gattOperationReceived', (p) => {
      if (p.type === 'connection') band.connectionAttempts += 1;
      return session.send(
        'BluetoothEmulation.simulateGATTOperationResponse' as never,
        {
          address: p.address,
          type: p.type,
          // 0 is success; any other code refuses (the band is out of range).
          code: p.type === 'connection' && !band.inRange ? 0x85 : 0,
        } as never,
      );
    });
    on('BluetoothEmulation.characteristicOperationReceived', (p) => {
      const read = p.type === 'read';
      if (read) band.reads += 1;
      return session.send(
        'BluetoothEmulation.simulateCharacteristicOperationResponse' as never,
        {
          characteristicId: p.characteristicId,
          type: p.type,
          code: 0,
          ...(read ? { data: heartRateBytes(band.bpm()) } : {}),
        } as never,
      );
    });
    on('BluetoothEmulation.descriptorOperationReceived', (p) =>
      session.send(
        'BluetoothEmulation.simulateDescriptorOperationResponse' as never,
        {
          descriptorId: p.descriptorId,
          type: p.type,
          code: 0,
        } as never,
      ),
    );

    // The chooser: pick the first device offered, once.
    const pageSession = await page.context().newCDPSession(page);
    await pageSession.send('DeviceAccess.enable' as never);
    const answered = new Set<string>();
    pageSession.on(
      'DeviceAccess.deviceRequestPrompted' as never,
      ((p: { id: string; devices: { id: string }[] }) => {
        const first = p.devices[0];
        if (!first || answered.has(p.id)) return;
        answered.add(p.id);
        pageSession
          .send('DeviceAccess.selectPrompt' as never, { id: p.id, deviceId: first.id } as never)
          .catch(() => undefined);
      }) as never,
    );
    return band;
  }

  /** The band walks away: the link drops, and reconnection attempts fail until it is back in range. */
  async disconnect(): Promise<void> {
    this.inRange = false;
    await this.session.send(
      'BluetoothEmulation.simulateGATTDisconnection' as never,
      {
        address: this.address,
      } as never,
    );
  }

  /**
   * Closes the page that uses the band, then turns the emulation off. In that order: Chromium 156 dies (SIGSEGV, the
   * whole browser and every page in it: "Target page, context or browser has been closed") when a page still holding
   * the emulated device calls `gatt.connect()` after `BluetoothEmulation.disable`, which is what a phone page in its
   * reconnect loop does within a second of the band walking away. Disabling while the link is up, or with a
   * connection attempt pending, does not crash; a new attempt after it does (reproduced every time).
   */
  async close(): Promise<void> {
    await this.page.close().catch(() => undefined);
    await this.session.send('BluetoothEmulation.disable' as never).catch(() => undefined);
    await this.session.detach().catch(() => undefined);
  }
}
