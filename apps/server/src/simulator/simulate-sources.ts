// Where the `simulate` command gets its gateways and bracelets from.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ageOn } from '@wearable/domain';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { openDb } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { DEMO_ORGANIZATIONS } from '../db/seed/demo-data.js';
import { SITE_KINDS } from './environment.js';
import type { SimGateway, SimulationOptions } from './simulation.js';
import { provisionSimulation } from './simulator.repository.js';

/** A wrong flag or file: main prints its message alone, without a stack. */
export class SimulateUsageError extends Error {}

const gatewaysFile = z.array(
  z.object({
    gatewayId: z.string().min(1),
    credential: z.string().min(1),
    serialNumbers: z.array(z.string().min(1)).min(1),
    site: z.enum(SITE_KINDS).optional(),
  }),
);

export interface Source {
  gateways: SimGateway[];
  wearers: SimulationOptions['wearers'];
}

/** The demo organisation's deterministic gateways and bracelets, as the seed creates them. */
export function demoSource(): Source {
  const demo = DEMO_ORGANIZATIONS.find((o) => o.isDemo);
  if (!demo) throw new SimulateUsageError('no demo organisation in the seed data');
  const now = new Date();
  return {
    gateways: demo.gateways.map((g) => ({
      gatewayId: g.id,
      credential: g.credential,
      serialNumbers: demo.wearers.filter((w) => w.gatewayId === g.id).map((w) => w.serialNumber),
    })),
    wearers: Object.fromEntries(
      demo.wearers.map((w) => [
        w.serialNumber,
        { age: ageOn(w.birthDate, now), dutyCycleMinutes: w.dutyCycle },
      ]),
    ),
  };
}

/** Keeps the first M gateways and N bracelets of a source. */
export function limit(
  source: Source,
  wearers: number | undefined,
  gateways: number | undefined,
): Source {
  let left = wearers ?? Infinity;
  const kept = source.gateways.slice(0, gateways ?? Infinity).map((g) => {
    const serialNumbers = g.serialNumbers.slice(0, Math.max(0, left));
    left -= serialNumbers.length;
    return { ...g, serialNumbers };
  });
  return { ...source, gateways: kept.filter((g) => g.serialNumbers.length > 0) };
}

/**
 * Provisions into the server's database. PGlite's data folder cannot be opened by two
 * processes: refuse while a server answers at --url, and stop after writing the gateways file.
 */
export async function provision(
  url: string,
  wearers: number,
  gateways: number,
): Promise<{ source: Source; exit: boolean }> {
  const config = loadConfig();
  const pglite = !config.databaseUrl;
  if (pglite) {
    const running = await fetch(new URL('/healthz', url)).then(
      () => true,
      () => false,
    );
    if (running) {
      throw new SimulateUsageError(
        `A server answers at ${url} on PGlite (${config.dataDir}), whose data folder only one process may open. ` +
          'Stop it, run --provision, start it again and run with --gateways-file.',
      );
    }
  }
  const db = await openDb(config);
  try {
    await migrate(db);
    const result = await provisionSimulation(db, {
      wearers,
      gateways,
      birthYear: (i) => 1962 + ((i * 7) % 44),
    });
    const file = join(pglite ? config.dataDir : '.', `simulation-${result.organizationId}.json`);
    writeFileSync(file, JSON.stringify(result.gateways, null, 2));
    console.log(
      `Provisioned ${result.organizationId}: ${wearers} wearers on ${gateways} gateways; gateways file ${file}`,
    );
    return { source: { gateways: result.gateways, wearers: {} }, exit: pglite };
  } finally {
    await db.close();
  }
}

/** A JSON list of { gatewayId, credential, serialNumbers[], site? }. */
export function readGatewaysFile(path: string): SimGateway[] {
  const parsed = gatewaysFile.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success)
    throw new SimulateUsageError(`--gateways-file: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
