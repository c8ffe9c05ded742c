import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '@wearable/domain';
import { createOrganization, createWearer } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { liveHub, SUMMARY_BACKLOG_BYTES } from './live.hub.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** A stand-in for a client's response: records frames; `writableLength` is what is still unsent. */
function fakeResponse() {
  const frames: string[] = [];
  const res = {
    writableEnded: false,
    destroyed: false,
    writableLength: 0,
    write(frame: string) {
      frames.push(frame);
      return true;
    },
    end() {
      res.writableEnded = true;
    },
  };
  return { res, frames, summaries: () => frames.filter((f) => f.startsWith('event: summary')) };
}

async function until(ok: () => boolean, limitMs = 8000) {
  const deadline = Date.now() + limitMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('live stream backlog', () => {
  it('holds summary frames back from a congested client and sends them once it drained', async () => {
    const org = await createOrganization(t);
    const w = await createWearer(t, { organizationId: org.id });
    const owner: Actor = {
      uid: 'owner',
      role: 'ORGANIZATION_OWNER',
      organizationId: org.id,
      managedGroupIds: [],
      linkedWearerIds: [],
    };
    const hub = liveHub(t.ctx, { error: () => undefined });
    try {
      const free = fakeResponse();
      const congested = fakeResponse();
      congested.res.writableLength = SUMMARY_BACKLOG_BYTES + 1;
      hub.add(owner, free.res as unknown as ServerResponse);
      hub.add(owner, congested.res as unknown as ServerResponse);
      t.ctx.bus.emit('wearer.updated', { organizationId: org.id, groupId: null, wearerId: w.uid });
      await until(() => free.summaries().length > 0);
      expect(free.summaries()[0]).toContain(w.uid);
      expect(congested.summaries()).toEqual([]);
      // Drained: the held-back wearer arrives at a later flush without a new change.
      congested.res.writableLength = 0;
      await until(() => congested.summaries().length > 0);
      expect(congested.summaries()[0]).toContain(w.uid);
    } finally {
      hub.close();
    }
  });
});
