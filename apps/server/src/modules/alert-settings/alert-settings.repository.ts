import type { Actor } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { SqlParams, wearerScope, type WearerScopeFilter } from '../../access/scope-sql.js';

export interface WearerSettingsRow {
  uid: string;
  name: string;
  organization_id: string;
  group_id: string | null;
  group_name: string | null;
  birth_date: Date | string | null;
  /** The organisation's kind: its defaults stand in for settings never stored. */
  kind: string;
  settings: unknown;
  updated_at: Date | string | null;
}

export function alertSettingsRepository(db: Queryable) {
  return {
    /** Visible wearers with their stored (partial) settings; `uids` narrows to those wearers. */
    async wearerSettings(
      actor: Actor,
      filter: WearerScopeFilter,
      uids?: string[],
    ): Promise<WearerSettingsRow[]> {
      const p = new SqlParams();
      let where = wearerScope(actor, p, filter);
      if (uids) where += ` AND u.id = ANY(${p.add(uids)}::text[])`;
      return db.query<WearerSettingsRow>(
        `SELECT u.id AS uid, u.name, u.organization_id, u.group_id, g.name AS group_name,
            to_char(u.birth_date, 'YYYY-MM-DD') AS birth_date, o.kind, s.settings, s.updated_at
       FROM users u
       JOIN organizations o ON o.id = u.organization_id
       LEFT JOIN groups g ON g.id = u.group_id
       LEFT JOIN wearer_alert_settings s ON s.wearer_id = u.id
      WHERE ${where}
      ORDER BY u.name, u.id`,
        p.values,
      );
    },

    /** Row locks on the wearers (in id order, so two bulk changes cannot deadlock) for a read-merge-save. */
    async lockWearers(uids: string[]): Promise<void> {
      await db.query(
        'SELECT id FROM users WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE',
        [uids],
      );
    },

    async saveSettings(wearerId: string, settings: unknown, by: string, at: Date): Promise<void> {
      await db.query(
        `INSERT INTO wearer_alert_settings (wearer_id, settings, updated_at, updated_by)
     VALUES ($1, $2::jsonb, $3, $4)
     ON CONFLICT (wearer_id) DO UPDATE
       SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
        [wearerId, JSON.stringify(settings), at, by],
      );
    },
  };
}
