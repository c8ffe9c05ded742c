import type { Queryable } from '../../db/client.js';

/** An organisation's sign-in settings as stored. */
export interface StoredSignInSettings {
  requireTotp: boolean;
  requireSecondFactor: boolean;
  secondFactorGraceDays: number;
  /** When requireSecondFactor was last turned on (the grace period runs from here). */
  secondFactorRequiredSince: Date | null;
}

/** The SQL of an organisation's sign-in settings. */
export function signInSettingsRepository(db: Queryable) {
  return {
    async find(organizationId: string): Promise<StoredSignInSettings | null> {
      const rows = await db.query<StoredSignInSettings>(
        `SELECT require_totp AS "requireTotp", require_second_factor AS "requireSecondFactor",
                second_factor_grace_days AS "secondFactorGraceDays",
                second_factor_required_since AS "secondFactorRequiredSince"
           FROM organizations WHERE id = $1`,
        [organizationId],
      );
      return rows[0] ?? null;
    },

    async update(organizationId: string, settings: StoredSignInSettings): Promise<void> {
      await db.query(
        `UPDATE organizations
            SET require_totp = $2, require_second_factor = $3, second_factor_grace_days = $4,
                second_factor_required_since = $5
          WHERE id = $1`,
        [
          organizationId,
          settings.requireTotp,
          settings.requireSecondFactor,
          settings.secondFactorGraceDays,
          settings.secondFactorRequiredSince,
        ],
      );
    },
  };
}
