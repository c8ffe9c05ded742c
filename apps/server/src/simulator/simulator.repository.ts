import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';

/** A bracelet the simulator reports for, with what the model takes from the database. */
export interface SourceBracelet {
  gatewayId: string;
  serialNumber: string;
  dutyCycleMinutes: number;
  birthDate: string | null;
}

/** The demo organisation (the oldest flagged one, as the demo scope uses). */
export async function findDemoOrganization(
  db: Db,
): Promise<{ id: string; timeZone: string } | null> {
  const rows = await db.query<{ id: string; timeZone: string }>(
    `SELECT id, time_zone AS "timeZone" FROM organizations WHERE is_demo ORDER BY created_at, id LIMIT 1`,
  );
  return rows[0] ?? null;
}

/** Every worn bracelet of an organisation that reports through one of its gateways. */
export async function findOrganizationBracelets(
  db: Db,
  organizationId: string,
): Promise<SourceBracelet[]> {
  return db.query<SourceBracelet>(
    `SELECT b.gateway_id AS "gatewayId", b.serial_number AS "serialNumber",
            b.heart_rate_duty_cycle AS "dutyCycleMinutes", to_char(u.birth_date, 'YYYY-MM-DD') AS "birthDate"
       FROM bracelets b
       JOIN gateways g ON g.id = b.gateway_id AND g.organization_id = b.organization_id
       JOIN users u ON u.id = b.wearer_id AND u.deleted_at IS NULL
      WHERE b.organization_id = $1
      ORDER BY b.gateway_id, b.serial_number`,
    [organizationId],
  );
}

/** The organisation's open EMERGENCY alerts (SOS, fall): the demo keeper keeps one open (demo-keeper.ts). */
export async function countOpenEmergencies(db: Db, organizationId: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM alerts WHERE organization_id = $1 AND status = 'OPEN' AND level = 'EMERGENCY'`,
    [organizationId],
  );
  return rows[0]?.n ?? 0;
}

/** When the organisation's newest reading was measured: the demo's backfill resumes there. */
export async function latestReadingAt(db: Db, organizationId: string): Promise<Date | null> {
  const rows = await db.query<{ at: Date | string | null }>(
    'SELECT max(at) AS at FROM readings WHERE organization_id = $1',
    [organizationId],
  );
  const at = rows[0]?.at;
  return at ? new Date(at) : null;
}

export interface ProvisionedGateway {
  gatewayId: string;
  credential: string;
  serialNumbers: string[];
}

/**
 * Creates a simulation organisation with `gateways` gateways and `wearers` wearers (bracelets
 * spread round-robin over the gateways), in one transaction. Credentials are returned once.
 */
export async function provisionSimulation(
  db: Db,
  opts: { wearers: number; gateways: number; name?: string; birthYear: (index: number) => number },
): Promise<{ organizationId: string; gateways: ProvisionedGateway[] }> {
  const run = randomUUID().slice(0, 8);
  const organizationId = `sim-org-${run}`;
  const gateways: ProvisionedGateway[] = Array.from({ length: opts.gateways }, (_, i) => ({
    gatewayId: `sim-${run}-gw-${i + 1}`,
    credential: randomBytes(24).toString('base64url'),
    serialNumbers: [],
  }));
  await db.transaction(async (tx) => {
    await tx.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [
      organizationId,
      opts.name ?? `Simulation ${run}`,
    ]);
    for (const [i, g] of gateways.entries()) {
      await tx.query(
        `INSERT INTO gateways (id, organization_id, type, serial_number, name, credential_hash)
         VALUES ($1, $2, 'STATIONARY', $3, $4, $5)`,
        [
          g.gatewayId,
          organizationId,
          `SIM-${run}-GW-${i + 1}`,
          `Simulated gateway ${i + 1}`,
          createHash('sha256').update(g.credential).digest('hex'),
        ],
      );
    }
    // Multi-row inserts: provisioning 10,000 wearers stays a few seconds.
    for (let from = 0; from < opts.wearers; from += 500) {
      const users: unknown[] = [];
      const bracelets: unknown[] = [];
      const userRows: string[] = [];
      const braceletRows: string[] = [];
      for (let i = from; i < Math.min(opts.wearers, from + 500); i++) {
        const n = String(i + 1).padStart(5, '0');
        const gateway = gateways[i % gateways.length]!;
        const serial = `SIM-${run}-BR-${n}`;
        gateway.serialNumbers.push(serial);
        const u = users.length;
        users.push(
          `sim-${run}-wr-${n}`,
          organizationId,
          `Wearer ${n}`,
          `${opts.birthYear(i)}-06-15`,
        );
        userRows.push(`($${u + 1}, $${u + 2}, NULL, $${u + 3}, $${u + 4}::date)`);
        const b = bracelets.length;
        bracelets.push(
          `sim-${run}-br-${n}`,
          organizationId,
          serial,
          `sim-${run}-wr-${n}`,
          gateway.gatewayId,
        );
        braceletRows.push(
          `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 3}, 1, $${b + 4}, $${b + 5}, 100)`,
        );
      }
      await tx.query(
        `INSERT INTO users (id, organization_id, role, name, birth_date) VALUES ${userRows.join(', ')}`,
        users,
      );
      await tx.query(
        `INSERT INTO bracelets (id, organization_id, serial_number, device_name, heart_rate_duty_cycle, wearer_id, gateway_id, battery)
         VALUES ${braceletRows.join(', ')}`,
        bracelets,
      );
    }
  });
  return { organizationId, gateways };
}
