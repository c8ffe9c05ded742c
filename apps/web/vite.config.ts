import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './vite.precompress.config.ts';
import { VitePWA } from 'vite-plugin-pwa';

const domainSrc = fileURLToPath(new URL('../../packages/domain/src/index.ts', import.meta.url));
const api = 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // The console as an installable app with a service worker of its own (issue 38 item 1: Web Push with
    // 確認 / 詳細, src/sw/sw.ts). Unlike /phone/ it precaches nothing: the console always loads from
    // the network, so a new build is never hidden behind an old cache.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      // Served as /sw.js (scope /; the phone's own worker keeps /phone/).
      injectManifest: { injectionPoint: undefined, rollupFormat: 'es' },
      registerType: 'autoUpdate',
      // A script file, not an inline script: the CSP allows scripts from our origin only.
      injectRegister: 'script',
      scope: '/',
      manifest: {
        id: '/',
        name: 'Wearable Console',
        short_name: 'Console',
        description: 'Alerts, readings and places of the wearers you look after.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f8fafc',
        theme_color: '#0f766e',
        lang: 'ja',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
    precompress(),
  ],
  resolve: { alias: [{ find: /^@wearable\/domain$/, replacement: domainSrc }] },
  server: {
    proxy: { '/v2': api, '/v3': api, '/demo-api': api, '/monitoring': api },
  },
  build: {
    rolldownOptions: {
      // The domain package is pure (constants, functions, zod schemas): let unused
      // schemas drop out so the login page does not carry every contract.
      treeshake: {
        moduleSideEffects: (id: string) => !id.includes('/packages/domain/src/'),
        // Schema builders have no side effects: an unused contract costs nothing.
        manualPureFunctions: ['z'],
      },
    },
  },
});
