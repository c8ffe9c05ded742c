import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './vite.precompress.config.ts';

const domainSrc = fileURLToPath(new URL('../../packages/domain/src/index.ts', import.meta.url));
const api = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
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
