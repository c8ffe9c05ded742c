import { z } from 'zod';
import { endpointsOf } from './endpoint.js';

/** GET /v2/demo: whether the demo is in this database and whether the caller is one of its accounts. */
export const demoStatus = z.object({
  present: z.boolean(),
  /** The signed-in account is a demo account (its password is published): the console shows a ribbon. */
  signedInAsDemo: z.boolean(),
});
export type DemoStatus = z.infer<typeof demoStatus>;

/** DELETE /v2/demo: what was removed (the same as `npm run cli -- demo remove`). */
export const demoRemoval = z.object({
  organizations: z.number().int(),
  accounts: z.number().int(),
});
export type DemoRemovalView = z.infer<typeof demoRemoval>;

const demo = endpointsOf({ tags: ['Demo'], errors: [401, 403] });

export const getDemoStatus = demo({
  method: 'GET',
  path: '/v2/demo',
  permission: 'self:read',
  summary: 'Whether the demo is present and whether you are signed in with a demo account',
  responses: { 200: demoStatus },
});

export const removeDemoData = demo({
  method: 'DELETE',
  path: '/v2/demo',
  permission: 'demo:remove',
  summary:
    'Delete the demo organisations with their data and the demo accounts; the demo is not seeded again (platform owners)',
  responses: { 200: demoRemoval },
});
