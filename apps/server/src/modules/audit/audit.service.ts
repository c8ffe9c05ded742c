/**
 * What other modules use of the audit log: record a change with the transaction that makes it
 * (audit.repository.ts). Reading the log is the audit routes' own.
 */
export { type AuditRecord, recordAudit } from './audit.repository.js';
