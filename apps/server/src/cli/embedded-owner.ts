import type { Config } from '../config.js';
import { pingControlSocket } from '../db/backup/control-socket.js';
import { CliError } from './cli-error.js';

/**
 * PGlite is one process: a second one opening a folder a server has open corrupts it. Every
 * command that opens the database (start included) asks the folder's control socket first and
 * refuses when a server answers there (docs/operations.md, Backups).
 */
export async function refuseWhileServerRuns(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  what: string,
): Promise<void> {
  if (config.databaseUrl) return;
  const pid = await pingControlSocket(config.dataDir);
  if (pid !== null)
    throw new CliError(
      `A server (pid ${pid}) is running on DATA_DIR ${config.dataDir}: stop it before ${what} (only one process may open an embedded database).`,
    );
}
