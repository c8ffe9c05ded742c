import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { type Db, openDb } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { demoWasRemoved, removeDemo } from '../db/seed/demo-remove.js';
import { seedDemo } from '../db/seed/demo.js';
import { ApiError } from '../errors.js';
import { CliError } from './cli-error.js';
import { refuseWhileServerRuns } from './embedded-owner.js';
import { accountsService } from '../modules/users/accounts.service.js';

async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const config = loadConfig();
  await refuseWhileServerRuns(config, 'this command');
  const db = await openDb(config);
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** At start: seed the demo into an empty database when SEED_DEMO (default on PGlite) allows. */
export async function seedOnStart(
  db: Db,
  seedDemoEnabled: boolean,
  log: (msg: string) => void,
): Promise<void> {
  if (!seedDemoEnabled) return;
  // Removed on purpose (`demo remove`): an empty database stays empty.
  if (await demoWasRemoved(db)) return;
  const result = await seedDemo(db);
  if (result.seeded) {
    log(
      `Seeded the demo: ${result.organizations} organisations, ${result.wearers} wearers, ${result.accounts} sign-ins (password demo-pass-2026)`,
    );
  }
}

/** `seed`: the demo dataset into an empty database. */
export async function seedCommand(args: string[]): Promise<void> {
  parseArgs({ args, options: {} });
  const result = await withDb(seedDemo);
  if (!result.seeded)
    throw new CliError(
      'The database already has organisations; the demo is seeded only into an empty one.',
    );
  console.log(
    `Seeded the demo: ${result.organizations} organisations, ${result.wearers} wearers, ${result.accounts} sign-ins (password demo-pass-2026)`,
  );
}

/** `create-admin --email E --password P [--name N]`: a platform owner (ALL_OWNER). */
export async function createAdminCommand(args: string[]): Promise<void> {
  let values: {
    email?: string | undefined;
    password?: string | undefined;
    name?: string | undefined;
  };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
      },
    }));
  } catch (err) {
    throw new CliError(
      `${(err as Error).message}. Usage: create-admin --email E --password P [--name N]`,
    );
  }
  if (!values.email || !values.password) {
    throw new CliError('Usage: create-admin --email E --password P [--name N]');
  }
  const { email, password, name } = values;
  try {
    const admin = await withDb((db) =>
      accountsService(db).createPlatformOwner({ email, password, name }),
    );
    console.log(`Created ALL_OWNER ${admin.email} (uid ${admin.uid})`);
  } catch (err) {
    if (err instanceof ApiError) throw new CliError(err.message);
    throw err;
  }
}

/** `demo remove`: deletes the demo organisations, their data and the demo accounts (docs: README, Operations). */
export async function demoCommand(args: string[]): Promise<void> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
  if (positionals.join(' ') !== 'remove')
    throw new CliError(
      'Usage: npm run cli -- demo remove   (deletes the demo organisations and accounts)',
    );
  const result = await withDb((db) => removeDemo(db, new Date()));
  console.log(
    result.organizations === 0 && result.accounts === 0
      ? 'No demo organisation or account was left; the demo will not be seeded again.'
      : `Removed the demo: ${result.organizations} organisations with their members, wearers and data, and the demo platform accounts. It will not be seeded again.`,
  );
}
