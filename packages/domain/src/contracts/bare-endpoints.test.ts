import { describe, expect, it } from 'vitest';
import * as domain from '../index.js';
import type { BareEndpoint, Endpoint } from './endpoint.js';

const exported: Record<string, unknown> = domain;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
const isEndpoint = (value: unknown): value is Endpoint =>
  isObject(value) && 'responses' in value && 'id' in value;
const isBare = (value: unknown): value is BareEndpoint =>
  isObject(value) && 'public' in value && 'id' in value && !('responses' in value);

const bare = Object.entries(exported).filter((entry): entry is [string, BareEndpoint] =>
  isBare(entry[1]),
);
const endpoints = new Map(
  Object.values(exported)
    .filter(isEndpoint)
    .map((e) => [e.id, e]),
);

describe('bare endpoints (the sign-in pages call these without zod)', () => {
  it.each(bare)('%s stands for its declared endpoint: same id, public alike', (name, b) => {
    const full = endpoints.get(b.id);
    expect(full, `${name}: no endpoint ${b.id}`).toBeDefined();
    expect(b.public).toBe(full?.permission === 'public');
    expect(b.raw ?? false).toBe(full?.raw ?? false);
    // The name says which one: bareSignIn stands for signIn.
    expect(name.startsWith('bare')).toBe(true);
    const endpointName = name.charAt(4).toLowerCase() + name.slice(5);
    expect(exported[endpointName]).toBe(full);
  });

  it('cover what the sign-in pages and the API client call', () => {
    expect(bare.map(([name]) => name)).toEqual(
      expect.arrayContaining(['bareSignIn', 'bareRefreshSession', 'bareGetUserInfo']),
    );
  });
});
