// Gateways with bracelets and wearers for the ingestion benchmark, straight through SQL.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../foundation/_lib.mjs';

const dist = (p) => import(pathToFileURL(join(ROOT, 'apps/server/dist', p)).href);

/** @returns {Promise<{ id: string, credential: string, serials: string[] }[]>} */
export async function seedGateways(db, { gateways, bracelets }) {
  const org = 'org-bench-ingestion';
  await db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'ベンチ取込')`, [org]);
  const out = [];
  for (let g = 1; g <= gateways; g++) {
    const id = `igw-${g}`;
    const credential = `bench-ingestion-${g}`;
    await db.query(
      `INSERT INTO gateways (id, organization_id, type, serial_number, name, credential_hash)
       VALUES ($1, $2, 'STATIONARY', $3, $4, $5)`,
      [id, org, `IGW-${g}`, `Gateway ${g}`, createHash('sha256').update(credential).digest('hex')],
    );
    await db.query(
      `INSERT INTO users (id, organization_id, role, name, birth_date)
       SELECT 'iw-' || $1 || '-' || i, $2, NULL, '装着者 ' || $1 || '-' || i, DATE '1970-01-01' + (i * 397 % 15000)
         FROM generate_series(1, $3) i`,
      [g, org, bracelets],
    );
    await db.query(
      `INSERT INTO bracelets (id, organization_id, serial_number, device_name, wearer_id, gateway_id, battery)
       SELECT 'ib-' || $1 || '-' || i, $2, 'IBR-' || $1 || '-' || i, 'Bracelet', 'iw-' || $1 || '-' || i, $3, 100
         FROM generate_series(1, $4) i`,
      [g, org, id, bracelets],
    );
    out.push({
      id,
      credential,
      serials: Array.from({ length: bracelets }, (_, i) => `IBR-${g}-${i + 1}`),
    });
  }
  return out;
}

export async function countReadings({ databaseUrl, dataDir }) {
  const { openDb } = await dist('db/client.js');
  const db = await openDb({ databaseUrl, dataDir });
  const [row] = await db.query('SELECT count(*)::int AS n FROM readings');
  await db.close();
  return Number(row.n);
}
