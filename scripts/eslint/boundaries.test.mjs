import { describe, expect, it } from 'vitest';
import { crossing } from './boundaries.js';

// The import zones of eslint.config.js (issue 15 item 4), by the paths imports resolve to.
describe('import zones', () => {
  const web = 'apps/web/src';
  it('keeps a web feature out of another, its index included', () => {
    const page = `${web}/features/groups/components/groups-page.tsx`;
    expect(crossing(page, `${web}/features/site-heat/components/site-heat-list`)).toMatch(
      /features never import each other/,
    );
    // `../../site-heat` resolves to the folder: its index.
    expect(crossing(page, `${web}/features/site-heat`)).toMatch(/features never import each other/);
    expect(crossing(page, `${web}/features/groups/api/get-groups`)).toBeNull();
    expect(crossing(page, `${web}/components/ui/button`)).toBeNull();
    // A page of the app composes features.
    expect(crossing(`${web}/app/pages/groups-page.tsx`, `${web}/features/site-heat`)).toBeNull();
  });

  it('lets a server module reach another only through its service', () => {
    const from = 'apps/server/src/modules/alerts/alerts.routes.ts';
    expect(crossing(from, 'apps/server/src/modules/places/places.service.js')).toBeNull();
    expect(crossing(from, 'apps/server/src/modules/places/places.repository.js')).toMatch(
      /only through its service/,
    );
    expect(crossing(from, 'apps/server/src/modules/alerts/alerts.repository.js')).toBeNull();
  });

  it('keeps the engine pure: nothing of the server outside engine/', () => {
    const rule = 'apps/server/src/engine/rules/heatstroke.rule.ts';
    expect(crossing(rule, 'apps/server/src/db/client.js')).toMatch(/the engine only decides/);
    expect(crossing(rule, 'apps/server/src/modules/places/places.service.js')).toMatch(
      /the engine only decides/,
    );
    expect(crossing(rule, 'apps/server/src/bus/events.js')).toMatch(/the engine only decides/);
    expect(crossing(rule, 'apps/server/src/engine/types.js')).toBeNull();
    expect(crossing(rule, '@wearable/domain')).toBeNull();
    // The alerts module feeds the engine.
    expect(
      crossing('apps/server/src/modules/alerts/engine-turn.ts', 'apps/server/src/engine/engine.js'),
    ).toBeNull();
  });

  it('keeps the apps out of the domain', () => {
    expect(crossing('packages/domain/src/place/place.ts', 'apps/server/src/db/client')).toMatch(
      /imports nothing from the apps/,
    );
    expect(crossing('packages/domain/src/place/place.ts', '@wearable/web')).toMatch(
      /imports nothing from the apps/,
    );
  });
});
