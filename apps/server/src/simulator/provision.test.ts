import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { SimulateUsageError, simulateCommand } from './simulate.command.js';
import { provisionSimulation } from './simulator.repository.js';

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
});
const count = async (sql: string, params: unknown[]) =>
  Number((await t.db.query<{ n: number }>(sql, params))[0]?.n);

it('provisions an organisation whose gateways the CLI then simulates from a gateways file', async () => {
  const { organizationId, gateways } = await provisionSimulation(t.db, {
    wearers: 7,
    gateways: 3,
    birthYear: (i) => 1970 + i,
  });
  expect(gateways.map((g) => g.serialNumbers.length)).toEqual([3, 2, 2]);
  expect(
    await count(
      'SELECT count(*)::int AS n FROM bracelets WHERE organization_id = $1 AND wearer_id IS NOT NULL',
      [organizationId],
    ),
  ).toBe(7);

  const file = join(mkdtempSync(join(tmpdir(), 'sim-')), 'gateways.json');
  writeFileSync(file, JSON.stringify(gateways));
  const out = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await simulateCommand([
      '--url',
      baseUrl,
      '--gateways-file',
      file,
      '--mode',
      'fast',
      '--duration',
      '600',
      '--quiet',
    ]);
    const summary = out.mock.calls.map((c) => String(c[0])).find((l) => l.includes('summary'));
    expect(JSON.parse(summary!).summary).toMatchObject({ failedBatches: 0, rejected: 0 });
  } finally {
    out.mockRestore();
  }
  expect(
    await count('SELECT count(*)::int AS n FROM readings WHERE organization_id = $1', [
      organizationId,
    ]),
  ).toBeGreaterThanOrEqual(7 * 9);
});

it('names the bad flag or file instead of running', async () => {
  await expect(simulateCommand(['--via', 'pigeon'])).rejects.toThrow(SimulateUsageError);
  await expect(simulateCommand(['--wearers', '-3'])).rejects.toThrow(/--wearers/);
  const file = join(mkdtempSync(join(tmpdir(), 'sim-')), 'gateways.json');
  writeFileSync(file, JSON.stringify([{ gatewayId: 'x', serialNumbers: [] }]));
  await expect(simulateCommand(['--gateways-file', file])).rejects.toThrow(/--gateways-file/);
});
