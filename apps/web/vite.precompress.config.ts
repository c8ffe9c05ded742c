import { compression } from 'vite-plugin-compression2';

/**
 * Each text file of the build gets a .br and a .gz beside it, which the server sends to a browser
 * that accepts them (@fastify/static's preCompressed, apps/server/src/app.ts): compressed once at
 * build time, never per request. Both builds (the console and the phone gateway) use it.
 */
export const precompress = () =>
  compression({
    include: /\.(js|css|html|svg|json|webmanifest)$/,
    threshold: 1024,
    algorithms: ['brotliCompress', 'gzip'],
    logLevel: 'silent',
  });
