import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter, useRoutes, type RouteObject } from 'react-router';
import { Toaster } from 'sonner';
import en from '../../public/locales/en/common.json';
import ja from '../../public/locales/ja/common.json';
import { afterEach } from 'vitest';
import { BOOT_RESOURCES } from '../lib/i18n';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

export { en, ja };

/** i18next with the real locale files, loaded synchronously (no HTTP in jsdom). */
export async function createTestI18n(lng: 'ja' | 'en' = 'ja'): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng,
    fallbackLng: 'ja',
    defaultNS: 'common',
    resources: {
      ja: { common: ja, ...BOOT_RESOURCES.ja },
      en: { common: en, ...BOOT_RESOURCES.en },
    },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return instance;
}

interface RenderOptions {
  path?: string;
  lng?: 'ja' | 'en';
  /** Feature namespaces to load besides common, e.g. { ns: 'alerts', ja, en }. */
  namespaces?: { ns: string; ja: object; en: object }[];
}

/** Renders UI as the app does: translations, a query client (no retries), a router and the toaster. */
export async function renderWithApp(
  ui: ReactNode,
  { path = '/', lng = 'ja', namespaces = [] }: RenderOptions = {},
) {
  const i18n = await createTestI18n(lng);
  for (const { ns, ja, en } of namespaces) {
    i18n.addResourceBundle('ja', ns, ja);
    i18n.addResourceBundle('en', ns, en);
  }
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
        <Toaster visibleToasts={1} duration={5000} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { ...view, i18n, queryClient };
}

/** The app's own route tree inside a memory router. */
export function RoutesUnderTest({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

type Handler = (url: string, init: RequestInit | undefined) => Response | Promise<Response>;

/** Replaces window.fetch with a stand-in for the server; returns the calls it received. */
export function stubServer(handler: Handler) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    calls.push({
      url,
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    return handler(url, init);
  };
  globalThis.fetch = fetch;
  return calls;
}
