#!/usr/bin/env node
// The figures issue 15 asks to record in docs/architecture.md, measured on the working tree so
// they can be re-measured at any commit: node scripts/measure-architecture.mjs [--json] [--list]
//  - API path literals ('/v2/…', '/v3/…', '/demo-api/…') in the web outside tests;
//  - imports that cross a zone (scripts/eslint/boundaries.js): between web features, and from
//    one server module into another's non-service file (of which into its repository);
//  - permission declarations: route configs (`permission: '…'` in routes files or contracts)
//    and the services' access calls naming a permission;
//  - route boilerplate: lines of the routes files;
//  - source files over 200 and over 300 lines; `as X` casts in server and web (not `as const`);
//  - loose repositories and services: apps/server/src/modules/<area>/*.repository.ts and
//    *.service.ts that export no `xRepository` / `xService` factory, or services that also export a
//    function taking the app, the database or a transaction (issue 15: one style of each).
// Tests, generated files and the e2e/bench workspaces are left out.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { crossing } from './eslint/boundaries.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = new Set(process.argv.slice(2));

function walk(dir) {
  const out = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') out.push(...walk(rel));
    } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$|\.d\.ts$/.test(entry.name)) {
      out.push(rel);
    }
  }
  return out;
}

const files = ['packages/domain/src', 'apps/server/src', 'apps/web/src'].flatMap(walk);
const text = new Map(files.map((f) => [f, readFileSync(path.join(root, f), 'utf8')]));
const isTesting = (f) => /\/testing\/|test-utils/.test(f);

const webPathLiterals = [];
const crossings = [];
let casts = { server: 0, web: 0 };
let routeLines = 0;
let routePermissions = 0;
let servicePermissions = 0;
let contractPermissions = 0;
let over200 = 0;
let over300 = 0;
const big = [];
const looseRepositories = [];
const looseServices = [];
const moduleState = [];

for (const [file, src] of text) {
  if (isTesting(file)) continue;
  const lines = src.split('\n').length - (src.endsWith('\n') ? 1 : 0);
  if (lines > 200) over200++;
  if (lines > 300) (over300++, big.push(`${lines} ${file}`));
  const code = src.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
  const layer = /^apps\/server\/src\/modules\/[^/]+\/[^/]+\.(repository|service)\.ts$/.exec(file);
  if (layer) {
    const factory = new RegExp(
      `^export (?:function|const) [a-z]\\w*${layer[1] === 'service' ? 'Service' : 'Repository'}\\b`,
      'm',
    );
    // Loose: no factory, or (services) an exported function beside it that takes the app, the
    // database or a transaction itself instead of being a method of the factory.
    const takesDependency =
      /^export (?:async )?function (?!\w*Service\b)\w+(?:<[^>]*>)?\(\s*\w+\s*:\s*(?:AppContext|CoreContext|Queryable|Db|Pick<AppContext)\b|^export const (?!\w*Service\b)\w+ = (?:async )?\(\s*\w+\s*:\s*(?:AppContext|CoreContext|Queryable|Db|Pick<AppContext)\b/m;
    if (!factory.test(code) || (layer[1] === 'service' && takesDependency.test(code)))
      (layer[1] === 'service' ? looseServices : looseRepositories).push(file);
  }
  if (file.startsWith('apps/server/')) {
    // Module-level mutable state: a top-level let/var, or a top-level Map/Set/WeakMap/WeakSet/
    // AsyncLocalStorage, unless the comment line above says it is a memo of a pure function or not
    // app state (issue 15: what the app holds is a named field of the app context).
    const lines = src.split('\n');
    lines.forEach((line, i) => {
      if (
        /^(?:export )?(?:let|var) |^(?:export )?const \w+(?::[^=]+)? = new (?:Map|Set|WeakMap|WeakSet|AsyncLocalStorage)\b/.test(
          line,
        ) &&
        !/^const [A-Z_]+ = new Set\(\[/.test(line) &&
        !/\/\/.*(?:memo of a pure function|not app state)/i.test(lines[i - 1] ?? '')
      )
        moduleState.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  if (file.startsWith('apps/web/')) {
    for (const m of code.matchAll(/['"`]\/(v2|v3|demo-api)\/[^'"`]*/g))
      webPathLiterals.push(`${file}: ${m[0]}`);
  }
  const castCount = [...code.matchAll(/\bas\s+(?!const\b)[A-Z_a-z{[(]/g)].length;
  if (file.startsWith('apps/server/')) casts.server += castCount;
  if (file.startsWith('apps/web/')) casts.web += castCount;
  if (/\.routes\.ts$|\.plugin\.ts$/.test(file)) {
    routeLines += lines;
    routePermissions += [...code.matchAll(/permission:\s*'[^']+'/g)].length;
  }
  if (file.startsWith('packages/domain/src/contracts/')) {
    contractPermissions += [...code.matchAll(/permission:\s*'(?!public)[^']+'/g)].length;
  }
  if (file.startsWith('apps/server/src/modules/') && !/\.routes\.ts$/.test(file)) {
    servicePermissions += [
      ...code.matchAll(
        /\b(?:require|requireAll|permitted|requirePlatform|may)\(\s*[\w.]+,\s*'[a-zA-Z]+:[a-zA-Z]+'/g,
      ),
    ].length;
  }
  for (const m of code.matchAll(
    /(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    const spec = m[1] ?? m[2];
    const target = spec.startsWith('.')
      ? path.relative(root, path.resolve(path.dirname(path.join(root, file)), spec))
      : spec;
    const why = crossing(file, target);
    if (why) crossings.push({ file, target, repository: /\.repository(\.js)?$/.test(target) });
  }
}

const figures = {
  webPathLiterals: webPathLiterals.length,
  crossFeatureImports: crossings.filter((c) => c.file.startsWith('apps/web/')).length,
  crossModuleImports: crossings.filter((c) => c.file.startsWith('apps/server/')).length,
  crossModuleRepositoryImports: crossings.filter((c) => c.repository).length,
  permissionsInRoutesFiles: routePermissions,
  permissionsInContracts: contractPermissions,
  permissionsInServiceAccessCalls: servicePermissions,
  routeFileLines: routeLines,
  filesOver200Lines: over200,
  filesOver300Lines: over300,
  castsServer: casts.server,
  castsWeb: casts.web,
  looseRepositories: looseRepositories.length,
  looseServices: looseServices.length,
  serverModuleState: moduleState.length,
};
if (args.has('--json')) console.log(JSON.stringify(figures, null, 2));
else for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(32)} ${v}`);
if (args.has('--list')) {
  console.log('\n# zone crossings');
  for (const c of crossings) console.log(`${c.file} -> ${c.target}`);
  console.log('\n# web path literals');
  for (const l of webPathLiterals) console.log(l);
  console.log('\n# files over 300 lines');
  for (const b of big) console.log(b);
  console.log(
    '\n# loose repositories and services (no factory, or a function beside it taking a dependency)',
  );
  for (const f of [...looseRepositories, ...looseServices]) console.log(f);
  console.log('\n# module-level mutable state in the server (not a memo)');
  for (const m of moduleState) console.log(m);
}
