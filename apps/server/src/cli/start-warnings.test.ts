import { describe, expect, it } from 'vitest';
import { startWarnings } from './start-warnings.js';

const base = { dataDir: '/srv/wearable', publicUrl: 'https://care.example.jp', host: '0.0.0.0' };

describe('what a start warns about (issue 35)', () => {
  it('nothing for a public URL and a private DATA_DIR', () => {
    expect(startWarnings(base, false)).toEqual([]);
  });

  it('a DATA_DIR that others could read', () => {
    expect(startWarnings(base, true)).toEqual([
      expect.stringMatching(/^DATA_DIR \/srv\/wearable was readable/),
    ]);
  });

  it.each([
    'http://localhost:3000',
    'http://127.0.0.1:4100',
    'http://[::1]:3000',
    'http://app.localhost',
  ])('a loopback PUBLIC_URL (%s) while listening for other machines', (publicUrl) => {
    const [warning] = startWarnings({ ...base, publicUrl }, false);
    expect(warning).toMatch(/^PUBLIC_URL is .* while the server listens on 0\.0\.0\.0/);
  });

  it('a loopback PUBLIC_URL is right for a server that only listens on loopback', () => {
    expect(
      startWarnings({ ...base, publicUrl: 'http://localhost:3000', host: '127.0.0.1' }, false),
    ).toEqual([]);
  });
});
