import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './vite.precompress.config.ts';
import { VitePWA } from 'vite-plugin-pwa';

// The phone gateway (issue 16): its own build under dist/phone, served at /phone/, sharing no chunk with the
// console (a separate build cannot). Its service worker precaches everything it loads, so it opens offline.
const domainSrc = fileURLToPath(new URL('../../packages/domain/src/index.ts', import.meta.url));
const api = 'http://localhost:3000';

export default defineConfig({
  root: fileURLToPath(new URL('./phone', import.meta.url)),
  base: '/phone/',
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      registerType: 'autoUpdate',
      // A script file, not an inline script: the CSP allows scripts from our origin only.
      injectRegister: 'script',
      scope: '/phone/',
      manifest: {
        id: '/phone/',
        name: 'Wearable gateway',
        short_name: 'Gateway',
        description: 'Sends heart-rate bands, SOS, falls and position to the Wearable Console.',
        start_url: '/phone/',
        scope: '/phone/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: '#f8fafc',
        theme_color: '#0f766e',
        lang: 'ja',
        icons: [
          { src: 'icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
        navigateFallback: '/phone/index.html',
        navigateFallbackAllowlist: [/^\/phone\//],
        // The API and the gateway endpoint always go to the network: a cached answer would lie.
        navigateFallbackDenylist: [/^\/(v2|v3|gateway)\//],
        runtimeCaching: [],
      },
    }),
    precompress(),
  ],
  resolve: { alias: [{ find: /^@wearable\/domain$/, replacement: domainSrc }] },
  server: { proxy: { '/v2': api, '/gateway': api } },
  build: {
    outDir: fileURLToPath(new URL('./dist/phone', import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: {
        moduleSideEffects: (id: string) => !id.includes('/packages/domain/src/'),
        manualPureFunctions: ['z'],
      },
    },
  },
});
