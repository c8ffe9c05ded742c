import type { Queryable } from '../../db/client.js';

/** Why a code could not be used, read after the consuming UPDATE found nothing. */
export interface EnrolmentState {
  usedAt: Date | null;
  replacedAt: Date | null;
  expiresAt: Date;
}

export interface EnrolledGateway {
  gatewayId: string;
  gatewayName: string;
  organizationId: string;
  organizationName: string;
  groupId: string | null;
  groupName: string | null;
  phoneShared: boolean;
  phoneWearerId: string | null;
  emergencyPhone: string | null;
}

export interface PhoneWearer {
  id: string;
  name: string;
}

/** A wearer (not staff, not family, not deleted) of the organisation, in the group when one is given. */
const WEARER_OF = `u.organization_id = $1 AND (u.role IS NULL OR u.role = 'PERSONAL_SELF')
   AND u.deleted_at IS NULL AND ($2::text IS NULL OR u.group_id = $2)`;

/** One-time enrolment codes of SMARTPHONE gateways (migration 027); only the codes' SHA-256 are kept. */
export function phoneEnrolmentRepository(db: Queryable) {
  return {
    /** Ends the gateway's unused codes (a newer one replaces them). */
    async replaceUnused(gatewayId: string, at: Date): Promise<void> {
      await db.query(
        `UPDATE gateway_enrolments SET replaced_at = $2
          WHERE gateway_id = $1 AND used_at IS NULL AND replaced_at IS NULL`,
        [gatewayId, at],
      );
    },

    async insert(row: {
      codeHash: string;
      gatewayId: string;
      createdBy: string;
      at: Date;
      expiresAt: Date;
    }): Promise<void> {
      await db.query(
        `INSERT INTO gateway_enrolments (code_hash, gateway_id, created_by, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [row.codeHash, row.gatewayId, row.createdBy, row.at, row.expiresAt],
      );
    },

    /**
     * Uses the code if it is still good, in one statement: of two requests racing with one code,
     * exactly one gets the gateway id. Null when the code is unknown, used, replaced or expired.
     */
    async consume(codeHash: string, at: Date): Promise<string | null> {
      const rows = await db.query<{ gatewayId: string }>(
        `UPDATE gateway_enrolments SET used_at = $2
          WHERE code_hash = $1 AND used_at IS NULL AND replaced_at IS NULL AND expires_at > $2
          RETURNING gateway_id AS "gatewayId"`,
        [codeHash, at],
      );
      return rows[0]?.gatewayId ?? null;
    },

    async state(codeHash: string): Promise<EnrolmentState | null> {
      const rows = await db.query<EnrolmentState>(
        `SELECT used_at AS "usedAt", replaced_at AS "replacedAt", expires_at AS "expiresAt"
           FROM gateway_enrolments WHERE code_hash = $1`,
        [codeHash],
      );
      return rows[0] ?? null;
    },

    /** What the phone shows: its gateway's name, organisation and group. */
    async enrolled(gatewayId: string): Promise<EnrolledGateway | null> {
      const rows = await db.query<EnrolledGateway>(
        `SELECT gw.id AS "gatewayId", gw.name AS "gatewayName", o.id AS "organizationId",
                o.name AS "organizationName", g.id AS "groupId", g.name AS "groupName",
                gw.phone_shared AS "phoneShared", gw.phone_wearer_id AS "phoneWearerId",
                o.emergency_phone AS "emergencyPhone"
           FROM gateways gw JOIN organizations o ON o.id = gw.organization_id
           LEFT JOIN groups g ON g.id = gw.group_id
          WHERE gw.id = $1`,
        [gatewayId],
      );
      return rows[0] ?? null;
    },

    /** Wearers a phone of this organisation (and group, when the gateway has one) may be carried by. */
    async wearers(organizationId: string, groupId: string | null): Promise<PhoneWearer[]> {
      return db.query<PhoneWearer>(
        `SELECT u.id, u.name FROM users u WHERE ${WEARER_OF} ORDER BY u.name, u.id`,
        [organizationId, groupId],
      );
    },

    async wearer(
      organizationId: string,
      groupId: string | null,
      wearerId: string,
    ): Promise<PhoneWearer | null> {
      const rows = await db.query<PhoneWearer>(
        `SELECT u.id, u.name FROM users u WHERE ${WEARER_OF} AND u.id = $3`,
        [organizationId, groupId, wearerId],
      );
      return rows[0] ?? null;
    },
  };
}
