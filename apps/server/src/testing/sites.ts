import { randomUUID } from 'node:crypto';
import { png } from './images.js';
import type { TestApp } from './test-app.js';

/** A site of the organisation with a PNG plan: the robustness matrices' `siteId`. */
export async function createSiteFixture(
  t: TestApp,
  organizationId: string,
): Promise<{ siteId: string }> {
  const siteId = `site-fixture-${randomUUID()}`;
  await t.db.query(
    `INSERT INTO sites (id, organization_id, name, created_at) VALUES ($1, $2, $3, now())`,
    [siteId, organizationId, `Fixture site ${siteId.slice(-8)}`],
  );
  await t.db.query(
    `INSERT INTO site_plans (site_id, format, width, height, bytes, sha256, uploaded_at)
     VALUES ($1, 'png', 8, 8, $2, 'fixture', now())`,
    [siteId, png(8, 8)],
  );
  return { siteId };
}
