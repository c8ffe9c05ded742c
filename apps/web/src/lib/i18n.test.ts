import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localeFiles } from './i18n';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A server for /locales: answers each request in turn from `answers`; returns the paths asked for. */
function stubLocales(...answers: (() => Response | Promise<Response>)[]) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      asked.push(input);
      const answer = answers[Math.min(asked.length, answers.length) - 1];
      return answer === undefined ? json(404, {}) : answer();
    }),
  );
  return asked;
}

async function start(lng: 'ja' | 'en') {
  const instance = i18next.createInstance();
  await instance.use(localeFiles).init({
    lng,
    fallbackLng: false,
    ns: ['common'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
  });
  return instance;
}

afterEach(() => vi.unstubAllGlobals());

describe('locale files', () => {
  it('reads /locales/<lng>/<ns>.json and translates with it', async () => {
    const asked = stubLocales(() => json(200, { login: { title: 'Sign in' } }));
    const i18n = await start('en');
    expect(asked).toEqual(['/locales/en/common.json']);
    expect(i18n.t('login.title')).toBe('Sign in');
  });

  it('tries again after a server error or a network failure', async () => {
    const asked = stubLocales(
      () => json(503, {}),
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => json(200, { login: { title: 'ログイン' } }),
    );
    const i18n = await start('ja');
    expect(asked).toHaveLength(3);
    expect(i18n.t('login.title')).toBe('ログイン');
  });

  it('does not try again when the file is missing or not JSON', async () => {
    for (const answer of [() => json(404, {}), () => new Response('<html>', { status: 200 })]) {
      const asked = stubLocales(answer);
      const i18n = await start('en');
      expect(asked).toHaveLength(1);
      expect(i18n.t('login.title')).toBe('login.title');
    }
  });
});
