import type { Role, UserDevice } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';

export interface UserInfoRow {
  uid: string;
  name: string;
  mail: string | null;
  mailVerified: boolean;
  role: Role;
  organizationId: string | null;
  agreedTermsOfUse: boolean;
  devices: UserDevice[] | null;
  gatewayId: string | null;
}

export function usersRepository(db: Queryable) {
  return {
    /** GET /v2/user in one round trip: the user, the current terms, linked wearers' bracelets. */
    async findUserInfo(uid: string, termsVersion: string): Promise<UserInfoRow | null> {
      const rows = await db.query<UserInfoRow>(
        `SELECT u.id AS uid, u.name, u.email AS mail, u.email_verified AS "mailVerified", u.role,
                u.organization_id AS "organizationId",
                EXISTS (SELECT 1 FROM terms_agreements ta
                         WHERE ta.user_id = u.id AND ta.version = $2) AS "agreedTermsOfUse",
                (SELECT json_agg(json_build_object(
                          'deviceId', b.id, 'deviceName', b.device_name, 'uid', w.id,
                          'usingWearableId', b.id, 'name', w.name) ORDER BY w.id)
                   FROM user_links ul
                   JOIN users w ON w.id = ul.wearer_id AND w.deleted_at IS NULL
                   JOIN bracelets b ON b.wearer_id = w.id
                  WHERE ul.user_id = u.id) AS devices,
                CASE WHEN u.role = 'PERSONAL_SELF'
                     THEN (SELECT b.gateway_id FROM bracelets b WHERE b.wearer_id = u.id) END
                  AS "gatewayId"
           FROM users u WHERE u.id = $1 AND u.deleted_at IS NULL`,
        [uid, termsVersion],
      );
      return rows[0] ?? null;
    },

    async emailTaken(email: string): Promise<boolean> {
      return (await db.query('SELECT 1 FROM users WHERE email = $1', [email])).length > 0;
    },

    async insertAccount(row: {
      id: string;
      role: Role;
      organizationId: string | null;
      name: string;
      email: string;
      passwordHash: string;
    }): Promise<void> {
      await db.query(
        `INSERT INTO users (id, organization_id, role, name, email, email_verified, password_hash)
         VALUES ($1, $2, $3, $4, $5, false, $6)`,
        [row.id, row.organizationId, row.role, row.name, row.email, row.passwordHash],
      );
    },

    async hasAgreedToTerms(uid: string, version: string): Promise<boolean> {
      const rows = await db.query(
        'SELECT 1 FROM terms_agreements WHERE user_id = $1 AND version = $2',
        [uid, version],
      );
      return rows.length > 0;
    },

    /** Records an agreement; agreeing twice keeps the first time. */
    async recordTermsAgreement(uid: string, version: string, at: Date): Promise<Date> {
      await db.query(
        `INSERT INTO terms_agreements (user_id, version, agreed_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, version) DO NOTHING`,
        [uid, version, at],
      );
      const rows = await db.query<{ agreedAt: Date }>(
        'SELECT agreed_at AS "agreedAt" FROM terms_agreements WHERE user_id = $1 AND version = $2',
        [uid, version],
      );
      return rows[0]?.agreedAt ?? at;
    },
  };
}
