/** What other modules use to write the audit log, in their own transaction. */
export { recordAudit } from './audit.repository.js';
