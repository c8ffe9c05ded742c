import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAP_GZIP_MIN_BYTES, mapBody } from './places.routes.js';

describe("the map answer's encoding", () => {
  const large = JSON.stringify({
    people: Array.from({ length: 4000 }, (_, i) => [`w-${i}`, '佐藤 花子']),
  });

  it('gzips a large answer for a caller that accepts it, and it reads back the same', async () => {
    expect(large.length).toBeGreaterThan(MAP_GZIP_MIN_BYTES);
    const { body, gzip } = await mapBody(large, 'gzip, deflate, br');
    expect(gzip).toBe(true);
    expect(body.length).toBeLessThan(large.length / 5);
    expect(gunzipSync(body).toString('utf8')).toBe(large);
  });

  it('sends a small answer, or one to a caller without gzip, as it is', async () => {
    expect(await mapBody('{"people":[]}', 'gzip')).toEqual({ body: '{"people":[]}', gzip: false });
    expect(await mapBody(large, undefined)).toEqual({ body: large, gzip: false });
    expect(await mapBody(large, 'br, deflate')).toEqual({ body: large, gzip: false });
  });
});
