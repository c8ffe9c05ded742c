import type { Queryable } from '../../db/client.js';
import type { SignInSettings } from '@wearable/domain';

/** The SQL of an organisation's sign-in settings. */
export function signInSettingsRepository(db: Queryable) {
  return {
    async find(organizationId: string): Promise<SignInSettings | null> {
      const rows = await db.query<SignInSettings>(
        'SELECT require_totp AS "requireTotp" FROM organizations WHERE id = $1',
        [organizationId],
      );
      return rows[0] ?? null;
    },

    async update(organizationId: string, settings: SignInSettings): Promise<void> {
      await db.query('UPDATE organizations SET require_totp = $2 WHERE id = $1', [
        organizationId,
        settings.requireTotp,
      ]);
    },
  };
}
