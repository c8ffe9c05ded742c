import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { boundaries } from './scripts/eslint/boundaries.js';

const PAGE_PATH_RULES = [
  {
    selector: String.raw`Literal[value=/^\/(login|verify|select-device|user|organization|devices|alert-histories|gateways|groups|members|settings|users|terms|privacy|_app)(\/|$|\?|#)/]`,
    message: 'Build the path from paths (src/config/paths.ts).',
  },
  {
    selector: String.raw`TemplateLiteral > TemplateElement:first-child[value.raw=/^\/(login|verify|select-device|user|organization|devices|alert-histories|gateways|groups|members|settings|users|terms|privacy|_app)(\/|$)/]`,
    message: 'Build the path from paths (src/config/paths.ts).',
  },
];

// An API path is written once, in its contract (packages/domain/src/contracts): the web calls
// call(endpoint, input) and never writes '/v2/…' by hand.
const API_PATH_RULES = [
  {
    selector: String.raw`Literal[value=/^\/(v2|v3|demo-api)\//]`,
    message: 'Call the endpoint from its contract: call(endpoint, input) (lib/endpoint.ts).',
  },
  {
    selector: String.raw`TemplateLiteral > TemplateElement:first-child[value.raw=/^\/(v2|v3|demo-api)\//]`,
    message: 'Call the endpoint from its contract: call(endpoint, input) (lib/endpoint.ts).',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '.tmp/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/*.config.{js,ts,mjs}',
      '**/scripts/*.mjs',
      // The classic script index.html runs before the first paint (tested in apps/web/src/lib/theme.test.ts).
      'apps/web/public/theme.js',
      'scripts/**',
      'bench/**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Fastify plugins and handlers are async by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Boundaries (STYLE.md): domain imports nothing from the apps; the apps never import each other.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/*', '@wearable/server', '@wearable/web'],
              message: 'Apps and domain never import an app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // One table of paths (STYLE.md, docs/web.md): links, redirects and menus build routes from
    // src/config/paths.ts, never from a hand-written '/devices/...' string.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: [
      'apps/web/src/config/paths.ts',
      '**/*.test.{ts,tsx}',
      'apps/web/src/**/*test-utils.tsx',
      'apps/web/src/testing/**',
    ],
    rules: {
      'no-restricted-syntax': ['error', ...PAGE_PATH_RULES, ...API_PATH_RULES],
    },
  },
  {
    // The phone gateway (issue 16) is its own app and bundle: it never loads the console's code.
    files: ['apps/web/src/phone/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '**/apps/*', '@wearable/server', '@wearable/web'],
              message:
                "The phone app imports only its own files and the domain, never the console's.",
            },
          ],
        },
      ],
    },
  },
  {
    // One access layer (STYLE.md): who may do what is decided by the domain's permission table and
    // apps/server/src/access, never by a role branch in a server module.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/access/**',
      'apps/server/src/testing/**',
      '**/*.test.ts',
      'apps/server/src/db/seed/**',
      'apps/server/src/cli/**',
      'apps/server/src/simulator/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/*', '@wearable/server', '@wearable/web'],
              message: 'Apps and domain never import an app.',
            },
          ],
          paths: [
            {
              name: '@wearable/domain',
              importNames: [
                'isPlatformRole',
                'isPersonalRole',
                'isOrganizationRole',
                'isStaffRole',
                'PLATFORM_ROLES',
                'PERSONAL_ROLES',
                'ORGANIZATION_ROLES',
                'STAFF_ROLES',
              ],
              message:
                'Decide access with can()/holds()/scopeOf() or the access service, not by role.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "BinaryExpression[operator=/^[!=]==?$/] > MemberExpression[property.name='role']",
          message:
            'No role branches in server modules: declare a permission and use the access service.',
        },
        {
          selector: "SwitchStatement > MemberExpression.discriminant[property.name='role']",
          message:
            'No role branches in server modules: declare a permission and use the access service.',
        },
        {
          selector:
            "CallExpression[callee.property.name='includes'] > MemberExpression.arguments[property.name='role']",
          message:
            'No role branches in server modules: declare a permission and use the access service.',
        },
      ],
    },
  },
  {
    // Import zones (issue 15 item 4, scripts/eslint/boundaries.js): features never import each other,
    // a server module reaches another only through its service, the domain imports no app. No file is
    // exempt: the allow-list of crossing files (47 on 2026-11-26 at the contracts' merge, 56 once the
    // vendor gateways, ingestion pipeline and site heat statements landed, 16 at 16:30 UTC) was emptied
    // and removed at ~23:00 UTC the same day. `node scripts/measure-architecture.mjs --list` names any crossing.
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    plugins: { boundaries },
    rules: { 'boundaries/zones': 'error' },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
  {
    // A benchmark measures the apps: it may import their sources (bench/alert-noise runs the engine).
    files: ['bench/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
