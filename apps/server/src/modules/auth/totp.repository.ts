import { PERMISSION_ROLES } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

/**
 * The staff an organisation's second-factor requirement applies to: whoever reads their organisation (the
 * personal roles, a family's and a wearer's own accounts, never do). Read from the permission table.
 */
const STAFF_ROLES: readonly string[] = PERMISSION_ROLES['organization:read'];

export interface TotpRow {
  secretEncrypted: string;
  enabledAt: Date | null;
  lastStep: number | null;
}

export interface SecondFactorState {
  email: string | null;
  enabled: boolean;
  /** The account's organisation requires TOTP. */
  required: boolean;
  hasPasskeys: boolean;
  /**
   * The organisation requires a second factor of its staff and the account is staff: when its grace period
   * ends (null otherwise).
   */
  staffGraceEndsAt: Date | null;
}

/** The SQL of TOTP secrets (the organisation's requirement is read here, set in organizations). */
export function totpRepository(db: Queryable) {
  return {
    async find(userId: string): Promise<TotpRow | null> {
      const rows = await db.query<TotpRow & { lastStep: string | number | null }>(
        `SELECT secret_encrypted AS "secretEncrypted", enabled_at AS "enabledAt", last_step AS "lastStep"
           FROM user_totp WHERE user_id = $1`,
        [userId],
      );
      const row = rows[0];
      // bigint comes back as a string from node-postgres.
      return row ? { ...row, lastStep: row.lastStep === null ? null : Number(row.lastStep) } : null;
    },

    /** What a sign-in of this account needs after its first step. */
    async secondFactorState(userId: string): Promise<SecondFactorState> {
      const rows = await db.query<SecondFactorState>(
        `SELECT u.email,
                (t.enabled_at IS NOT NULL) AS enabled,
                COALESCE(o.require_totp, false) AS required,
                EXISTS (SELECT 1 FROM user_passkeys p WHERE p.user_id = u.id) AS "hasPasskeys",
                CASE WHEN o.require_second_factor AND u.role = ANY($2::text[])
                     THEN COALESCE(o.second_factor_required_since, 'epoch'::timestamptz)
                          + make_interval(days => o.second_factor_grace_days)
                END AS "staffGraceEndsAt"
           FROM users u
           LEFT JOIN user_totp t ON t.user_id = u.id
           LEFT JOIN organizations o ON o.id = u.organization_id
          WHERE u.id = $1`,
        [userId, STAFF_ROLES],
      );
      return (
        rows[0] ?? {
          email: null,
          enabled: false,
          required: false,
          hasPasskeys: false,
          staffGraceEndsAt: null,
        }
      );
    },

    /** A new, unconfirmed secret; never replaces a confirmed one (false then). */
    async savePending(userId: string, secretEncrypted: string, at: Date): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO user_totp (user_id, secret_encrypted, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE
           SET secret_encrypted = EXCLUDED.secret_encrypted, created_at = EXCLUDED.created_at,
               last_step = NULL
           WHERE user_totp.enabled_at IS NULL
         RETURNING user_id`,
        [userId, secretEncrypted, at],
      );
      return rows.length > 0;
    },

    async enable(userId: string, step: number, at: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE user_totp SET enabled_at = $3, last_step = $2
          WHERE user_id = $1 AND enabled_at IS NULL RETURNING user_id`,
        [userId, step, at],
      );
      return rows.length > 0;
    },

    /** Accepts a code's step once: false when that step (or a later one) was already used. */
    async acceptStep(userId: string, step: number): Promise<boolean> {
      const rows = await db.query(
        `UPDATE user_totp SET last_step = $2
          WHERE user_id = $1 AND (last_step IS NULL OR last_step < $2) RETURNING user_id`,
        [userId, step],
      );
      return rows.length > 0;
    },

    async remove(userId: string): Promise<void> {
      await db.query('DELETE FROM user_totp WHERE user_id = $1', [userId]);
    },
  };
}
