/**
 * What other modules use of the audit log: record a change with the transaction that makes it
 * (audit.repository.ts). Reading the log is the audit routes' own.
 */
import type { Queryable } from '../../db/client.js';
import { type AuditRecord, auditRepository } from './audit.repository.js';

export type { AuditRecord };

/** Records one change in the audit log, with the transaction that makes it. */
export function recordAudit(tx: Queryable, entry: AuditRecord): Promise<void> {
  return auditRepository(tx).recordAudit(entry);
}
