import type { Queryable } from '../../db/client.js';
import type { AlertRecord } from '../../bus/events.js';
import { alertWritesRepository } from './alert-writes.repository.js';

/**
 * Stored alerts read by id, the way the engine emitted them (another server's alert event and an
 * outbox row carry only the id). Its own file: the cross-server bus reads it without the
 * lifecycle's imports.
 */
export function storedAlertsService(db: Queryable) {
  return {
    find: (alertId: string): Promise<AlertRecord | null> => alertWritesRepository(db).find(alertId),
  };
}
