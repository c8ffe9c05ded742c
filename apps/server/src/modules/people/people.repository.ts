import type { Actor, FamilyMember, PersonKind } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { SqlParams, wearerScope, type WearerScopeFilter } from '../../access/scope-sql.js';

/** A person row as the people endpoints read it (deleted people are not found). */
export interface PersonRow {
  id: string;
  /** What the person is to an organisation (the target's kind, not the caller's role). */
  kind: PersonKind;
  role: string | null;
  name: string;
  name_reading: string | null;
  organization_id: string | null;
  group_id: string | null;
  group_name: string | null;
  birth_date: string | null;
  email: string | null;
  phone_number: string | null;
  linked_wearer_ids: string[];
}

export function peopleRepository(db: Queryable) {
  return {
    async find(uid: string): Promise<PersonRow | undefined> {
      const [row] = await db.query<PersonRow>(
        `SELECT u.id, u.role, u.name, u.name_reading,
                CASE WHEN u.role = 'PERSONAL' THEN 'FAMILY'
                     WHEN (u.role IS NULL OR u.role = 'PERSONAL_SELF') AND u.organization_id IS NOT NULL THEN 'WEARER'
                     ELSE 'STAFF' END AS kind, u.organization_id, u.group_id, g.name AS group_name,
                to_char(u.birth_date, 'YYYY-MM-DD') AS birth_date, u.email, u.phone_number,
                COALESCE((SELECT array_agg(ul.wearer_id ORDER BY ul.wearer_id) FROM user_links ul
                            JOIN users w ON w.id = ul.wearer_id AND w.deleted_at IS NULL
                           WHERE ul.user_id = u.id), '{}') AS linked_wearer_ids
           FROM users u LEFT JOIN groups g ON g.id = u.group_id
          WHERE u.id = $1 AND u.deleted_at IS NULL`,
        [uid],
      );
      return row;
    },

    async wearerNames(ids: string[]): Promise<{ uid: string; name: string }[]> {
      if (!ids.length) return [];
      return db.query(
        `SELECT id AS uid, name FROM users WHERE id = ANY($1::text[]) ORDER BY name, id`,
        [ids],
      );
    },

    /** Family members (PERSONAL) linked to wearers the actor reaches, with those wearers only. */
    async familyOfVisibleWearers(actor: Actor, filter: WearerScopeFilter): Promise<FamilyMember[]> {
      const p = new SqlParams();
      const where = wearerScope(actor, p, filter, 'w');
      const rows = await db.query<{
        uid: string;
        name: string;
        email: string | null;
        phone_number: string | null;
        wearers: { uid: string; name: string }[];
      }>(
        `SELECT f.id AS uid, f.name, f.email, f.phone_number,
                json_agg(json_build_object('uid', w.id, 'name', w.name) ORDER BY w.name, w.id) AS wearers
           FROM users w
           JOIN user_links ul ON ul.wearer_id = w.id
           JOIN users f ON f.id = ul.user_id AND f.role = 'PERSONAL' AND f.deleted_at IS NULL
          WHERE ${where}
          GROUP BY f.id, f.name, f.email, f.phone_number
          ORDER BY f.name, f.id`,
        p.values,
      );
      return rows.map((r) => ({
        uid: r.uid,
        name: r.name,
        email: r.email,
        phoneNumber: r.phone_number,
        wearers: r.wearers,
      }));
    },

    /** The organisation's wearers (not removed) of these names, with what the import compares. */
    async wearersNamed(
      organizationId: string,
      names: string[],
    ): Promise<
      {
        id: string;
        name: string;
        name_reading: string | null;
        group_id: string | null;
        birth_date: string | null;
      }[]
    > {
      if (!names.length) return [];
      return db.query(
        `SELECT id, name, name_reading, group_id, to_char(birth_date, 'YYYY-MM-DD') AS birth_date
           FROM users
          WHERE organization_id = $1 AND deleted_at IS NULL
            AND (role IS NULL OR role = 'PERSONAL_SELF') AND name = ANY($2::text[])
          ORDER BY id`,
        [organizationId, names],
      );
    },

    /** The organisation's groups, to find a group named in a file. */
    async groupsOf(organizationId: string): Promise<{ id: string; name: string }[]> {
      return db.query('SELECT id, name FROM groups WHERE organization_id = $1 ORDER BY id', [
        organizationId,
      ]);
    },

    async insertWearer(w: {
      id: string;
      organizationId: string;
      name: string;
      nameReading: string | null;
      birthDate: string;
      groupId: string | null;
    }) {
      await db.query(
        `INSERT INTO users (id, organization_id, role, name, name_reading, group_id, birth_date)
         VALUES ($1, $2, NULL, $3, $4, $5, $6)`,
        [w.id, w.organizationId, w.name, w.nameReading, w.groupId, w.birthDate],
      );
    },

    async update(
      uid: string,
      set: {
        name?: string | undefined;
        nameReading?: string | null | undefined;
        birthDate?: string | undefined;
        groupId?: string | null | undefined;
      },
    ) {
      const p = new SqlParams();
      const cols: string[] = [];
      if (set.name !== undefined) cols.push(`name = ${p.add(set.name)}`);
      if (set.nameReading !== undefined) cols.push(`name_reading = ${p.add(set.nameReading)}`);
      if (set.birthDate !== undefined) cols.push(`birth_date = ${p.add(set.birthDate)}::date`);
      if (set.groupId !== undefined) cols.push(`group_id = ${p.add(set.groupId)}`);
      await db.query(`UPDATE users SET ${cols.join(', ')} WHERE id = ${p.add(uid)}`, p.values);
    },

    /** Locks a wearer not yet removed (in a transaction); false when it is gone (removed meanwhile). */
    async lockLiveUser(uid: string): Promise<boolean> {
      const rows = await db.query(
        'SELECT id FROM users WHERE id = $1 AND deleted_at IS NULL FOR UPDATE',
        [uid],
      );
      return rows.length > 0;
    },

    /** Soft delete: the row (and so its readings and alerts) stays; the bracelet goes back to the shelf. */
    async removeWearer(uid: string) {
      await db.query('UPDATE users SET deleted_at = now() WHERE id = $1', [uid]);
      await db.query('UPDATE bracelets SET wearer_id = NULL WHERE wearer_id = $1', [uid]);
      await db.query('DELETE FROM refresh_tokens WHERE user_id = $1', [uid]);
    },

    async clearPhone(uid: string) {
      await db.query('UPDATE users SET phone_number = NULL, phone_verified = false WHERE id = $1', [
        uid,
      ]);
    },

    /** true if the link was made (false: it existed). */
    async link(uid: string, wearerUid: string): Promise<boolean> {
      const rows = await db.query(
        'INSERT INTO user_links (user_id, wearer_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING user_id',
        [uid, wearerUid],
      );
      return rows.length > 0;
    },
    async unlink(uid: string, wearerUid: string): Promise<boolean> {
      const rows = await db.query(
        'DELETE FROM user_links WHERE user_id = $1 AND wearer_id = $2 RETURNING user_id',
        [uid, wearerUid],
      );
      return rows.length > 0;
    },
  };
}
