import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { CURRENT_TERMS_VERSION, normalizeSerial, type Role } from '@wearable/domain';
import type { AppContext } from '../context.js';
import type { Db } from '../db/client.js';
import { authService } from '../modules/auth/auth.service.js';
import { hashPassword } from '../modules/auth/password.js';

/**
 * Database factories for server tests. Each test makes its own organisation with these, so
 * nothing needs resetting. Every factory takes the test's Db (or anything holding it, such as
 * the TestApp or the AppContext); createUser needs the context to issue real tokens.
 */
export type DbSource = Db | { db: Db };
const dbOf = (t: DbSource): Db => ('db' in t ? t.db : t);
const short = () => randomUUID().slice(0, 8);

/** Every factory user signs in with this password (hashed once per test file). */
export const FACTORY_PASSWORD = 'factory-pass-2026';
let factoryHash: Promise<string> | undefined;

export interface OrganizationRecord {
  id: string;
  name: string;
  isDemo: boolean;
  timeZone: string;
}
export async function createOrganization(
  t: DbSource,
  opts: { name?: string; isDemo?: boolean; timeZone?: string } = {},
): Promise<OrganizationRecord> {
  const org = {
    id: `org-${randomUUID()}`,
    name: opts.name ?? `組織 ${short()}`,
    isDemo: opts.isDemo ?? false,
    timeZone: opts.timeZone ?? 'Asia/Tokyo',
  };
  await dbOf(t).query(
    'INSERT INTO organizations (id, name, is_demo, time_zone) VALUES ($1, $2, $3, $4)',
    [org.id, org.name, org.isDemo, org.timeZone],
  );
  return org;
}

export interface GroupRecord {
  id: string;
  organizationId: string;
  name: string;
}
export async function createGroup(
  t: DbSource,
  opts: { organizationId: string; name?: string },
): Promise<GroupRecord> {
  const group = {
    id: `grp-${randomUUID()}`,
    organizationId: opts.organizationId,
    name: opts.name ?? `グループ ${short()}`,
  };
  await dbOf(t).query('INSERT INTO groups (id, organization_id, name) VALUES ($1, $2, $3)', [
    group.id,
    group.organizationId,
    group.name,
  ]);
  return group;
}

export interface UserRecord {
  uid: string;
  role: Role;
  name: string;
  email: string;
  password: string;
  organizationId: string | null;
  accessToken: string;
  refreshToken: string;
  /** Ready-made headers for app.inject. */
  headers: { authorization: string };
}
/**
 * A console user, signed in through the real token service. Organisation roles need
 * organizationId; ORGANIZATION_GROUP takes managedGroupIds; PERSONAL(_SELF) take linkedWearerIds.
 * PERSONAL_SELF without `wearer` fields is a user linked to themself.
 */
export async function createUser(
  t: { ctx: AppContext } | AppContext,
  opts: {
    role: Role;
    organizationId?: string | null;
    name?: string;
    email?: string;
    groupId?: string | null;
    managedGroupIds?: string[];
    linkedWearerIds?: string[];
    agreedTerms?: boolean;
    /** E.164; phoneVerified lets it sign in by SMS code. */
    phoneNumber?: string;
    phoneVerified?: boolean;
    /** Language of the user's mails and SMS (default ja). */
    locale?: 'ja' | 'en';
  },
): Promise<UserRecord> {
  const ctx = 'ctx' in t ? t.ctx : t;
  factoryHash ??= hashPassword(FACTORY_PASSWORD);
  const uid = `usr-${randomUUID()}`;
  const email = (opts.email ?? `${opts.role.toLowerCase()}-${short()}@example.test`).toLowerCase();
  const name = opts.name ?? `${opts.role} ${short()}`;
  const organizationId = opts.organizationId ?? null;
  await ctx.db.query(
    `INSERT INTO users (id, organization_id, role, name, email, email_verified, password_hash, group_id,
                        phone_number, phone_verified, locale)
     VALUES ($1, $2, $3, $4, $5, true, $6, $7, $8, $9, $10)`,
    [
      uid,
      organizationId,
      opts.role,
      name,
      email,
      await factoryHash,
      opts.groupId ?? null,
      opts.phoneNumber ?? null,
      opts.phoneVerified ?? false,
      opts.locale ?? 'ja',
    ],
  );
  for (const groupId of opts.managedGroupIds ?? []) {
    await ctx.db.query('INSERT INTO group_managers (group_id, user_id) VALUES ($1, $2)', [
      groupId,
      uid,
    ]);
  }
  const linked = opts.linkedWearerIds ?? (opts.role === 'PERSONAL_SELF' ? [uid] : []);
  for (const wearerId of linked) await linkWearer(ctx, { uid }, { uid: wearerId });
  if (opts.agreedTerms ?? true) {
    await ctx.db.query('INSERT INTO terms_agreements (user_id, version) VALUES ($1, $2)', [
      uid,
      CURRENT_TERMS_VERSION,
    ]);
  }
  const pair = await authService(ctx).startSession(uid);
  return {
    uid,
    role: opts.role,
    name,
    email,
    password: FACTORY_PASSWORD,
    organizationId,
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    headers: { authorization: `Bearer ${pair.accessToken}` },
  };
}

export async function linkWearer(
  t: DbSource,
  user: { uid: string },
  wearer: { uid: string },
): Promise<void> {
  await dbOf(t).query(
    'INSERT INTO user_links (user_id, wearer_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [user.uid, wearer.uid],
  );
}

export interface GatewayRecord {
  id: string;
  organizationId: string;
  groupId: string | null;
  type: 'STATIONARY' | 'SMARTPHONE';
  serialNumber: string;
  /** Plaintext; the row keeps its hex SHA-256 in credential_hash. */
  credential: string;
}
export async function createGateway(
  t: DbSource,
  opts: {
    organizationId: string;
    groupId?: string | null;
    type?: 'STATIONARY' | 'SMARTPHONE';
    name?: string;
  },
): Promise<GatewayRecord> {
  const gateway: GatewayRecord = {
    id: `gw-${randomUUID()}`,
    organizationId: opts.organizationId,
    groupId: opts.groupId ?? null,
    type: opts.type ?? 'STATIONARY',
    serialNumber: `GW-${randomUUID()}`,
    credential: randomBytes(24).toString('base64url'),
  };
  await dbOf(t).query(
    `INSERT INTO gateways (id, organization_id, group_id, type, serial_number, name, credential_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      gateway.id,
      gateway.organizationId,
      gateway.groupId,
      gateway.type,
      gateway.serialNumber,
      opts.name ?? `Gateway ${short()}`,
      createHash('sha256').update(gateway.credential).digest('hex'),
    ],
  );
  return gateway;
}

export interface BraceletRecord {
  id: string;
  organizationId: string;
  serialNumber: string;
  deviceName: string;
  wearerId: string | null;
  gatewayId: string | null;
  dutyCycle: 1 | 3 | 5 | 10;
}
export async function createBracelet(
  t: DbSource,
  opts: {
    organizationId: string;
    wearerId?: string | null;
    gatewayId?: string | null;
    dutyCycle?: 1 | 3 | 5 | 10;
    /** A fixed serial (the simulator derives each wearer's random stream from it). */
    serialNumber?: string;
  },
): Promise<BraceletRecord> {
  // As the bracelets table stores it (migration 033's trigger): tests send what it holds.
  const serial = normalizeSerial(opts.serialNumber ?? `BR-${randomUUID()}`);
  const bracelet: BraceletRecord = {
    id: `br-${randomUUID()}`,
    organizationId: opts.organizationId,
    serialNumber: serial,
    deviceName: `Bracelet ${serial.slice(3, 11)}`,
    wearerId: opts.wearerId ?? null,
    gatewayId: opts.gatewayId ?? null,
    dutyCycle: opts.dutyCycle ?? 1,
  };
  await dbOf(t).query(
    `INSERT INTO bracelets (id, organization_id, serial_number, device_name, heart_rate_duty_cycle,
                            wearer_id, gateway_id, battery)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 100)`,
    [
      bracelet.id,
      bracelet.organizationId,
      bracelet.serialNumber,
      bracelet.deviceName,
      bracelet.dutyCycle,
      bracelet.wearerId,
      bracelet.gatewayId,
    ],
  );
  return bracelet;
}

export interface WearerRecord {
  uid: string;
  name: string;
  organizationId: string;
  groupId: string | null;
  birthDate: string;
  bracelet: BraceletRecord;
  gateway: GatewayRecord;
}
/**
 * A monitored wearer (a user without a console role) wearing a new bracelet that reports
 * through a new gateway (or through `gatewayId` when given).
 */
export async function createWearer(
  t: DbSource,
  opts: {
    organizationId: string;
    groupId?: string | null;
    birthDate?: string;
    name?: string;
    gateway?: GatewayRecord;
    dutyCycle?: 1 | 3 | 5 | 10;
    serialNumber?: string;
  },
): Promise<WearerRecord> {
  const db = dbOf(t);
  const uid = `wr-${randomUUID()}`;
  const name = opts.name ?? `装着者 ${short()}`;
  const birthDate = opts.birthDate ?? '1985-06-15';
  const groupId = opts.groupId ?? null;
  await db.query(
    `INSERT INTO users (id, organization_id, role, name, group_id, birth_date)
     VALUES ($1, $2, NULL, $3, $4, $5)`,
    [uid, opts.organizationId, name, groupId, birthDate],
  );
  const gateway =
    opts.gateway ?? (await createGateway(db, { organizationId: opts.organizationId, groupId }));
  const bracelet = await createBracelet(db, {
    organizationId: opts.organizationId,
    wearerId: uid,
    gatewayId: gateway.id,
    ...(opts.dutyCycle ? { dutyCycle: opts.dutyCycle } : {}),
    ...(opts.serialNumber ? { serialNumber: opts.serialNumber } : {}),
  });
  return { uid, name, organizationId: opts.organizationId, groupId, birthDate, bracelet, gateway };
}
