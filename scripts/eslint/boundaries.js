import path from 'node:path';

/**
 * Import zones (issue 15 item 4), checked on every import and re-export by the path it resolves
 * to, not by how it is spelt:
 * - a web feature never imports another feature (shared form parts live in components/ui,
 *   shared API helpers in lib);
 * - a server module reaches another module only through its service (`<name>.service.ts`),
 *   never its repository or its other files;
 * - the domain package imports nothing from the apps;
 * - the alert engine (`apps/server/src/engine/`) only decides: it imports nothing of the server
 *   outside `engine/` (no database, module, bus or context; the alerts module feeds it).
 * Tests are outside the zones (they set up worlds through any module).
 */
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

// A feature's folder, its index (`../../site-heat`, resolved without a file name) included.
const FEATURE = /^apps\/web\/src\/features\/([^/]+)(?:\/|$)/;
const MODULE = /^apps\/server\/src\/modules\/([^/]+)\//;
const DOMAIN = /^packages\/domain\//;
const ENGINE = /^apps\/server\/src\/engine\//;
const SERVER = /^apps\/server\/src\//;
const APPS = /^apps\//;

/** Why importing `target` from `file` crosses a boundary, or null. Both relative to the root. */
export function crossing(file, target) {
  const fromFeature = FEATURE.exec(file)?.[1];
  const toFeature = FEATURE.exec(target)?.[1];
  if (fromFeature && toFeature && fromFeature !== toFeature) {
    return `features/${fromFeature} imports features/${toFeature}: features never import each other (move what they share to components/ui or lib).`;
  }
  const fromModule = MODULE.exec(file)?.[1];
  const toModule = MODULE.exec(target)?.[1];
  if (fromModule && toModule && fromModule !== toModule && !/\.service(\.js|\.ts)?$/.test(target)) {
    return `modules/${fromModule} imports ${target.replace(/^apps\/server\/src\//, '')}: a module reaches another only through its service.`;
  }
  if (ENGINE.test(file) && SERVER.test(target) && !ENGINE.test(target)) {
    return `engine/ imports ${target.replace(/^apps\/server\/src\//, '')}: the engine only decides; it imports no database, module, bus or context (what locks, writes or publishes lives in modules/alerts).`;
  }
  if (DOMAIN.test(file) && (APPS.test(target) || /^@wearable\/(server|web)/.test(target))) {
    return 'The domain imports nothing from the apps.';
  }
  return null;
}

function targetOf(filename, spec) {
  if (spec.startsWith('.')) {
    return path
      .relative(root, path.resolve(path.dirname(filename), spec))
      .split(path.sep)
      .join('/');
  }
  return spec;
}

export const boundaries = {
  rules: {
    zones: {
      meta: {
        type: 'problem',
        docs: { description: 'Imports stay inside their zone (features, modules, domain).' },
        schema: [],
      },
      create(context) {
        const file = path.relative(root, context.filename).split(path.sep).join('/');
        if (/\.test\.tsx?$/.test(file)) return {};
        const check = (source) => {
          if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
          const why = crossing(file, targetOf(context.filename, source.value));
          if (why) context.report({ node: source, message: why });
        };
        return {
          ImportDeclaration: (node) => check(node.source),
          ExportNamedDeclaration: (node) => check(node.source),
          ExportAllDeclaration: (node) => check(node.source),
          ImportExpression: (node) => check(node.source),
        };
      },
    },
  },
};
