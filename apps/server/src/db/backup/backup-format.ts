/** What a backup archive of the embedded database holds (pglite-backup.ts writes it). */
export const BACKUP_FORMAT = 'wearable-console-backup';
/** The archive's description, written after the files. */
export const BACKUP_MANIFEST = 'backup.json';
/** The archive's last entry: an archive without it was cut short. */
export const BACKUP_END = 'backup-end.json';
/** The data folder's files sit under this folder of the archive. */
export const BACKUP_DATA_PREFIX = 'pgdata/';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  kind: 'pglite';
  /** When the copy began (pg_backup_start). */
  startedAt: string;
  /** The restored database holds everything committed before this moment (pg_backup_stop). */
  consistentAt: string;
  /** The schema migrations applied when the backup was taken. */
  migrations: string[];
  /** The WAL segments the archive holds, first and last. */
  walFrom: string;
  walTo: string;
}
