import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../context.js';
import type { WearerUpdatedEvent } from './events.js';
import { createWearerUpdates, notifyWearerUpdated } from './wearer-updates.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('wearer.updated', () => {
  it('goes out at once, then at most once a second per wearer with the latest payload', () => {
    vi.useFakeTimers();
    const bus = new EventEmitter();
    const ctx = { bus, wearerUpdates: createWearerUpdates() } as unknown as AppContext;
    const seen: WearerUpdatedEvent[] = [];
    bus.on('wearer.updated', (e: WearerUpdatedEvent) => seen.push(e));
    const event = (wearerId: string, groupId: string | null = null) => ({
      organizationId: 'o',
      groupId,
      wearerId,
    });

    notifyWearerUpdated(ctx, event('a'));
    notifyWearerUpdated(ctx, event('b'));
    notifyWearerUpdated(ctx, event('a', 'g1'));
    notifyWearerUpdated(ctx, event('a', 'g2'));
    expect(seen.map((e) => e.wearerId)).toEqual(['a', 'b']);

    vi.advanceTimersByTime(999);
    expect(seen).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(seen).toHaveLength(3);
    expect(seen[2]).toEqual(event('a', 'g2'));

    vi.advanceTimersByTime(5000);
    notifyWearerUpdated(ctx, event('a'));
    expect(seen).toHaveLength(4);
  });
});
