import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client';

/** A file travels as its bytes and a raw answer comes back as a Blob (a site's plan, issue 17). */
describe('files through the API client', () => {
  afterEach(() => localStorage.clear());

  it('sends a Blob body as application/octet-stream, untouched, and reads a blob answer', async () => {
    localStorage.setItem('accessToken', 'access-1');
    const seen: { headers: Record<string, string>; body: unknown }[] = [];
    const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ headers: init?.headers as Record<string, string>, body: init?.body });
      return new Response('PN', {
        status: 200,
        headers: { 'Content-Type': 'image/png' },
      });
    });
    const api = createApiClient({
      fetch: fetch,
      isDemo: () => false,
      onLogout: () => undefined,
    });
    const file = new Blob(['plan bytes'], { type: 'image/svg+xml' });
    await api.request('PUT', '/v2/site/s1/plan', { body: file, answer: 'blob' });
    expect(seen[0]!.body).toBe(file);
    expect(seen[0]!.headers['Content-Type']).toBe('application/octet-stream');
    expect(seen[0]!.headers.Authorization).toBe('Bearer access-1');

    const answer = await api.request<Blob>('GET', '/v2/site/s1/plan', { answer: 'blob' });
    expect(answer.ok).toBe(true);
    const blob = answer.ok ? answer.data : null;
    expect(blob?.type).toBe('image/png');
    expect(blob?.size).toBe(2);
  });
});
