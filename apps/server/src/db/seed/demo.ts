import { createHash } from 'node:crypto';
import {
  ALERT_LEVEL_OF,
  ALERT_TYPES,
  CURRENT_TERMS_VERSION,
  DEFAULT_SCHEDULE,
} from '@wearable/domain';
import { hashPassword } from '../../modules/auth/password.js';
import type { Db, Queryable } from '../client.js';
import {
  DEMO_ACCOUNTS,
  DEMO_NOTICE_RECIPIENTS,
  DEMO_ORGANIZATIONS,
  DEMO_PASSWORD,
  type SeedOrganization,
} from './demo-data.js';
import { DEMO_PLAN_HEIGHT, DEMO_PLAN_WIDTH, demoSitePlanPng } from './demo-plan.js';

export interface SeedResult {
  seeded: boolean;
  organizations: number;
  wearers: number;
  accounts: number;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

async function insertOrganization(tx: Queryable, org: SeedOrganization): Promise<void> {
  await tx.query(
    'INSERT INTO organizations (id, name, is_demo, time_zone) VALUES ($1, $2, $3, $4)',
    [org.id, org.name, org.isDemo, 'Asia/Tokyo'],
  );
  for (const g of org.groups) {
    await tx.query('INSERT INTO groups (id, organization_id, name) VALUES ($1, $2, $3)', [
      g.id,
      org.id,
      g.name,
    ]);
  }
  for (const gw of org.gateways) {
    await tx.query(
      `INSERT INTO gateways (id, organization_id, group_id, type, serial_number, name, credential_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [gw.id, org.id, gw.groupId, gw.type, gw.serialNumber, gw.name, sha256(gw.credential)],
    );
  }
  if (org.sites !== undefined && org.sites.length > 0) {
    const plan = demoSitePlanPng();
    const sha = createHash('sha256').update(plan).digest('hex');
    for (const site of org.sites) {
      await tx.query(
        'INSERT INTO sites (id, organization_id, group_id, name) VALUES ($1, $2, $3, $4)',
        [site.id, org.id, site.groupId, site.name],
      );
      await tx.query(
        `INSERT INTO site_plans (site_id, format, width, height, bytes, sha256, uploaded_at, uploaded_by)
         VALUES ($1, 'png', $2, $3, $4, $5, now(), NULL)`,
        [site.id, DEMO_PLAN_WIDTH, DEMO_PLAN_HEIGHT, plan, sha],
      );
      for (const g of site.gateways) {
        await tx.query(
          `INSERT INTO gateway_places (gateway_id, organization_id, site_id, plan_x, plan_y, updated_at)
           VALUES ($1, $2, $3, $4, $5, now())`,
          [g.gatewayId, org.id, site.id, g.x, g.y],
        );
      }
    }
  }
  for (const w of org.wearers) {
    await tx.query(
      `INSERT INTO users (id, organization_id, role, name, group_id, birth_date)
       VALUES ($1, $2, NULL, $3, $4, $5)`,
      [w.id, org.id, w.name, w.groupId, w.birthDate],
    );
    await tx.query(
      `INSERT INTO bracelets (id, organization_id, serial_number, device_name, heart_rate_duty_cycle,
                              wearer_id, gateway_id, battery, firmware, paired_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 100, '1.0.0', now())`,
      [w.braceletId, org.id, w.serialNumber, w.serialNumber, w.dutyCycle, w.id, w.gatewayId],
    );
  }
}

/**
 * Seeds the demo organisations and accounts into a database without organisations; does
 * nothing (seeded: false) otherwise, so a second start never seeds twice.
 */
export async function seedDemo(db: Db): Promise<SeedResult> {
  // One Argon2id hash for every account: they share the demo password.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    // Several servers starting at once on PostgreSQL: one seeds, the others then see rows.
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(7261002)');
    const existing = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
    if ((existing[0]?.n ?? 0) > 0)
      return { seeded: false, organizations: 0, wearers: 0, accounts: 0 };

    for (const org of DEMO_ORGANIZATIONS) await insertOrganization(tx, org);
    for (const a of DEMO_ACCOUNTS) {
      if (a.isWearerId) {
        // PERSONAL_SELF is one of the wearers: that person gets a sign-in.
        await tx.query(
          `UPDATE users SET role = $2, email = $3, email_verified = true, password_hash = $4
            WHERE id = $1`,
          [a.isWearerId, a.role, a.email, passwordHash],
        );
      } else {
        await tx.query(
          `INSERT INTO users (id, organization_id, role, name, email, email_verified, password_hash)
           VALUES ($1, $2, $3, $4, $5, true, $6)`,
          [a.id, a.organizationId, a.role, a.name, a.email, passwordHash],
        );
      }
      for (const groupId of a.managedGroupIds ?? []) {
        await tx.query('INSERT INTO group_managers (group_id, user_id) VALUES ($1, $2)', [
          groupId,
          a.id,
        ]);
      }
      for (const wearerId of a.linkedWearerIds ?? []) {
        await tx.query('INSERT INTO user_links (user_id, wearer_id) VALUES ($1, $2)', [
          a.id,
          wearerId,
        ]);
      }
      if (a.agreedTerms) {
        await tx.query('INSERT INTO terms_agreements (user_id, version) VALUES ($1, $2)', [
          a.id,
          CURRENT_TERMS_VERSION,
        ]);
      }
    }
    for (const [i, r] of DEMO_NOTICE_RECIPIENTS.entries()) {
      const org = DEMO_ORGANIZATIONS.find((o) => o.groups.some((g) => g.id === r.groupId))!;
      const types = ALERT_TYPES.filter(
        (t) => !r.emergencyOnly || ALERT_LEVEL_OF[t] === 'EMERGENCY',
      );
      await tx.query(
        `INSERT INTO group_alert_notice_settings (id, organization_id, group_id, phone_number, channel, alert_types,
                                                  schedule, step, position)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9)`,
        [
          `demo-notice-${i + 1}`,
          org.id,
          r.groupId,
          r.phoneNumber,
          r.channel,
          JSON.stringify(types),
          JSON.stringify(DEFAULT_SCHEDULE),
          r.order,
          i,
        ],
      );
    }
    return {
      seeded: true,
      organizations: DEMO_ORGANIZATIONS.length,
      wearers: DEMO_ORGANIZATIONS.reduce((n, o) => n + o.wearers.length, 0),
      accounts: DEMO_ACCOUNTS.length,
    };
  });
}
