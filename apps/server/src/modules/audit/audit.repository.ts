import type { AuditEntry, AuditKind } from '@wearable/domain';
import type { Queryable } from '../../db/client.js';
import { SqlParams } from '../../access/scope-sql.js';

export interface AuditRecord {
  organizationId: string | null;
  actorId: string | null;
  kind: AuditKind;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
}

export interface AuditFilter {
  /** undefined: every organisation and the platform's own entries (platform staff). */
  organizationId?: string | undefined;
  actorId?: string | undefined;
  kind?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  pageSize: number;
}

export function auditRepository(db: Queryable) {
  return {
    /**
     * Records one change. Call it with the transaction that makes the change (never with the pool),
     * so the entry is written exactly when the change commits.
     */
    async recordAudit(entry: AuditRecord): Promise<void> {
      await db.query(
        `INSERT INTO audit_log (organization_id, actor_id, kind, target_id, before, after)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)`,
        [
          entry.organizationId,
          entry.actorId,
          entry.kind,
          entry.targetId ?? null,
          entry.before === undefined ? null : JSON.stringify(entry.before),
          entry.after === undefined ? null : JSON.stringify(entry.after),
        ],
      );
    },

    async listAudit(f: AuditFilter): Promise<{ entries: AuditEntry[]; total: number }> {
      const p = new SqlParams();
      const where: string[] = ['true'];
      if (f.organizationId !== undefined)
        where.push(`a.organization_id = ${p.add(f.organizationId)}`);
      if (f.actorId !== undefined) where.push(`a.actor_id = ${p.add(f.actorId)}`);
      if (f.kind !== undefined) where.push(`a.kind = ${p.add(f.kind)}`);
      if (f.from !== undefined) where.push(`a.at >= ${p.add(f.from)}::timestamptz`);
      if (f.to !== undefined) where.push(`a.at < ${p.add(f.to)}::timestamptz`);
      const cond = where.join(' AND ');
      const [count] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_log a WHERE ${cond}`,
        p.values,
      );
      const limit = p.add(f.pageSize);
      const offset = p.add((f.page - 1) * f.pageSize);
      const rows = await db.query<{
        id: string;
        at: Date | string;
        organization_id: string | null;
        actor_id: string | null;
        actor_name: string | null;
        kind: string;
        target_id: string | null;
        before: unknown;
        after: unknown;
      }>(
        `SELECT a.id::text AS id, a.at, a.organization_id, a.actor_id, u.name AS actor_name, a.kind, a.target_id,
            a.before, a.after
       FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
      WHERE ${cond}
      ORDER BY a.at DESC, a.id DESC
      LIMIT ${limit} OFFSET ${offset}`,
        p.values,
      );
      return {
        total: count?.n ?? 0,
        entries: rows.map((r) => ({
          id: r.id,
          at: new Date(r.at).toISOString(),
          clientId: r.organization_id,
          actorId: r.actor_id,
          actorName: r.actor_name,
          kind: r.kind,
          targetId: r.target_id,
          before: r.before,
          after: r.after,
        })),
      };
    },
  };
}
