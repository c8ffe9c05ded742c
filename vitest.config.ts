import { configDefaults, defineConfig } from 'vitest/config';
import { DATABASE_FREE_TESTS } from './apps/server/src/testing/database-free-tests.ts';

const domainSrc = new URL('./packages/domain/src/index.ts', import.meta.url).pathname;
const domainTesting = new URL('./packages/domain/src/testing/index.ts', import.meta.url).pathname;
const alias = [
  { find: /^@wearable\/domain\/testing$/, replacement: domainTesting },
  { find: /^@wearable\/domain$/, replacement: domainSrc },
];

export default defineConfig({
  test: {
    // Three files at a time on two cores: many files wait part of their time (for PostgreSQL, a spawned server, a
    // broker, a sweep), and a third worker uses that time. The whole suite took 368 s with 3 workers and 455 s with
    // 2, run back to back on 27 Nov (docs/testing.md, "CI timing"); more would crowd the timers of the rest.
    maxWorkers: 3,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'domain',
          include: ['packages/domain/src/**/*.test.ts'],
          environment: 'node',
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          // The files of a worker share one module graph: the app's modules load once per worker, not
          // once per file (measured: 13 files 218 s -> 95 s). Safe because no server test mocks a
          // module and each file builds its own app, database and world. The web project stays
          // isolated: its pages keep state in modules (stores, i18n) that leak between files.
          isolate: false,
          globalSetup: ['apps/server/src/testing/global-setup.ts'],
          // PGlite here; the server-postgres project runs the same files on PostgreSQL.
          env: { TEST_DATABASE_URL: '' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // The same server suite again on PostgreSQL when TEST_DATABASE_URL is set (CI sets it).
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              resolve: { alias },
              test: {
                name: 'server-postgres',
                include: ['apps/server/src/**/*.test.ts'],
                // Files that open no database ran in the PGlite pass; here they would test nothing new.
                exclude: [...configDefaults.exclude, ...DATABASE_FREE_TESTS],
                environment: 'node',
                isolate: false,
                globalSetup: ['apps/server/src/testing/global-setup.ts'],
                env: { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        // The repository's own tooling (the lint rules' logic).
        test: { name: 'tooling', include: ['scripts/**/*.test.mjs'], environment: 'node' },
      },
      {
        resolve: { alias },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // Each file still gets its own module graph and window, in a VM context of a reused worker, instead of a
          // fresh process that loads jsdom and React again: web and domain 225 s -> 23 s at load 10-14 (of which
          // environment setup 175 s -> 2 s, imports 108 s -> 15 s), the same 1,185 tests.
          pool: 'vmThreads',
          // A page test types and clicks through several dialogs; under a loaded 2-core machine that alone passes 5 s.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
