/**
 * What other modules use of the audit log: record a change with the transaction that makes it
 * (audit.repository.ts). Reading the log is the audit routes' own.
 */
import type { Queryable } from '../../db/client.js';
import { type AuditRecord, auditRepository } from './audit.repository.js';

export type { AuditRecord };

/** The audit log in the caller's transaction: a change is recorded with the transaction that makes it. */
export function auditService(tx: Queryable) {
  return {
    record: (entry: AuditRecord): Promise<void> => auditRepository(tx).recordAudit(entry),
  };
}
