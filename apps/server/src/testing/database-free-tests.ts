/**
 * Server test files that never open a database: pure rules, decoders and texts. They run once, in the PGlite
 * pass; the PostgreSQL pass (vitest.config.ts, project server-postgres) leaves them out, since running them again
 * there would test nothing new. openTestDb refuses to open a database for a file listed here, so a listed file
 * that starts using one fails at once and is taken off the list.
 */
export const DATABASE_FREE_TESTS = [
  'apps/server/src/adapters/adapter-output.test.ts',
  'apps/server/src/adapters/advertisement.test.ts',
  'apps/server/src/adapters/aprilbrother.test.ts',
  'apps/server/src/adapters/chirpstack.test.ts',
  'apps/server/src/adapters/garbage.test.ts',
  'apps/server/src/adapters/ingics.test.ts',
  'apps/server/src/adapters/lansitec.test.ts',
  'apps/server/src/adapters/minew.test.ts',
  'apps/server/src/bus/wearer-updates.test.ts',
  'apps/server/src/db/backup/backup-archive.test.ts',
  'apps/server/src/adapters/things-stack.test.ts',
  'apps/server/src/engine/apsi-rules.test.ts',
  'apps/server/src/engine/device-rules.test.ts',
  'apps/server/src/engine/engine.test.ts',
  'apps/server/src/engine/heart-rate-rules.test.ts',
  'apps/server/src/engine/heat-rules.test.ts',
  'apps/server/src/engine/local-time.test.ts',
  'apps/server/src/engine/recovery-windows.test.ts',
  'apps/server/src/modules/alerts/alert-labels.test.ts',
  'apps/server/src/modules/gateway-refusals/near-miss.test.ts',
  'apps/server/src/modules/alerts/response-times-figures.test.ts',
  'apps/server/src/modules/auth/demo-mask.test.ts',
  'apps/server/src/modules/auth/password.test.ts',
  'apps/server/src/modules/notifications/notification-texts.test.ts',
  'apps/server/src/modules/notifications/site-heat-texts.test.ts',
  'apps/server/src/modules/notifications/twilio-signature.test.ts',
  'apps/server/src/modules/places/places.service.test.ts',
  'apps/server/src/modules/sites/site-plan-image.test.ts',
  'apps/server/src/simulator/runner.test.ts',
  'apps/server/src/simulator/simulation.test.ts',
];

/** Whether a test file (absolute, or relative to the repository) is on the list above. */
export function isDatabaseFree(file: string): boolean {
  return DATABASE_FREE_TESTS.some((listed) => file === listed || file.endsWith(`/${listed}`));
}
