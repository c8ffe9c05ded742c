import { existsSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { type AppContext, closeContext } from './context.js';
import { frameworkErrors, registerErrorHandler } from './plugins/error-handler.js';
import { nulGuard } from './plugins/nul-guard.js';
import { loggerOptions, logRequests } from './plugins/logging.js';
import { metricsRoutes } from './observability/metrics.routes.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { monitoringRoutes } from './modules/monitoring/monitoring.routes.js';
import { accessLogPlugin } from './plugins/access-log.js';
import { authPlugin } from './plugins/auth.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { termsGate } from './plugins/terms-gate.js';
import { rewriteDemoUrl } from './modules/auth/demo-scope.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { passkeysRoutes } from './modules/auth/passkeys.routes.js';
import { pushRoutes } from './modules/push/push.routes.js';
import { totpRoutes } from './modules/auth/totp.routes.js';
import { oidcRoutes } from './modules/auth/oidc.routes.js';
import { signInSettingsRoutes } from './modules/organizations/sign-in-settings.routes.js';
import { signInMethodsRoutes } from './modules/auth/sign-in-methods.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { organizationsRoutes } from './modules/organizations/organizations.routes.js';
import { setupRoutes } from './modules/setup/setup.routes.js';
import { demoRoutes } from './modules/demo/demo.routes.js';
import { membersRoutes } from './modules/members/members.routes.js';
import { invitationsRoutes } from './modules/invitations/invitations.routes.js';
import { groupsRoutes } from './modules/groups/groups.routes.js';
import { gatewaysRoutes } from './modules/gateways/gateways.routes.js';
import { phoneEnrolmentRoutes } from './modules/gateways/phone-enrolment.routes.js';
import { braceletsRoutes } from './modules/bracelets/bracelets.routes.js';
import { wearersRoutes } from './modules/wearers/wearers.routes.js';
import { peopleRoutes } from './modules/people/people.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { alertsRoutes } from './modules/alerts/alerts.routes.js';
import { heatRuleRoutes } from './modules/heat-rule/heat-rule.routes.js';
import { fhirRoutes } from './modules/fhir/fhir.routes.js';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes.js';
import { alertPolicyRoutes } from './modules/alert-policy/alert-policy.routes.js';
import { siteHeatPlugin } from './modules/site-heat/site-heat.plugin.js';
import { deviceDataRoutes } from './modules/device-data/device-data.routes.js';
import { alertSettingsRoutes } from './modules/alert-settings/alert-settings.routes.js';
import { familyNoticesRoutes } from './modules/family-notices/family-notices.routes.js';
import { nightRoundRoutes } from './modules/night-round/night-round.routes.js';
import { personDataRoutes } from './modules/person-data/person-data.routes.js';
import { accessLogRoutes } from './modules/access-log/access-log.routes.js';
import { notificationsPlugin } from './modules/notifications/notifications.plugin.js';
import { chatChannelsRoutes } from './modules/chat-channels/chat-channels.routes.js';
import { liveRoutes } from './modules/live/live.routes.js';
import { dataPathPlugin } from './modules/ingestion/data-path.plugin.js';
import { webhooksPlugin } from './modules/webhooks/webhooks.plugin.js';
import { gatewaySilencePlugin } from './modules/gateway-silence/gateway-silence.plugin.js';
import { channelHealthPlugin } from './modules/channel-health/channel-health.plugin.js';
import { alertOutboxPlugin } from './modules/alert-outbox/alert-outbox.plugin.js';
import { vendorGatewayRoutes } from './modules/vendor-gateways/vendor-gateways.routes.js';
import { unknownDevicesRoutes } from './modules/vendor-gateways/unknown-devices.routes.js';
import { gatewayRefusalsRoutes } from './modules/gateway-refusals/gateway-refusals.routes.js';
import { sitesRoutes } from './modules/sites/sites.routes.js';
import { placesRoutes } from './modules/places/places.routes.js';

export interface BuildAppOptions {
  /** Serve the built web app at / (off in API tests). */
  serveWeb?: boolean;
  logger?: boolean;
  /** Where log lines go (tests capture them); standard output by default. */
  logStream?: { write(line: string): void };
}

/** Builds the whole HTTP app on a context; used by main and by every server test. */
export async function buildApp(
  ctx: AppContext,
  opts: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger === false ? false : loggerOptions(ctx.config.logLevel, opts.logStream),
    // Logged by logRequests (plugins/logging.ts): errors and slow requests at info, every request at debug.
    disableRequestLogging: true,
    bodyLimit: 5 * 1024 * 1024,
    // A hop count becomes proxy-addr's "trust the first n hops" (Fastify's types take no number).
    trustProxy:
      typeof ctx.config.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(ctx.config.trustProxy)
        : ctx.config.trustProxy,
    // /demo-api/v2|v3/... runs the /v2|/v3 route as a read-only demo request (plugins/auth.ts).
    rewriteUrl: rewriteDemoUrl,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  logRequests(app, ctx.config.slowRequestMs, ctx.tracing);
  await registerSecurityHeaders(app, ctx.config.mapTiles?.url ?? null);
  app.addHook('onClose', () => closeContext(ctx));

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Wearable monitoring console API', version: '0.1.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/v2/openapi.json', { schema: { hide: true }, config: { public: true } }, () =>
    app.swagger(),
  );

  await app.register(nulGuard);
  await app.register(healthRoutes, { ctx });
  await app.register(metricsRoutes, { ctx });
  await app.register(monitoringRoutes, { ctx });
  await app.register(authPlugin, { ctx });
  await app.register(termsGate, { ctx });
  await app.register(accessLogPlugin, { ctx });
  // Before the sign-in routes: its onSend hook records the client of each session they issue.
  await app.register(accountRoutes, { ctx });
  await app.register(authRoutes, { ctx });
  await app.register(totpRoutes, { ctx });
  await app.register(passkeysRoutes, { ctx });
  await app.register(pushRoutes, { ctx });
  await app.register(oidcRoutes, { ctx });
  await app.register(signInMethodsRoutes, { ctx });
  await app.register(usersRoutes, { ctx });
  await app.register(organizationsRoutes, { ctx });
  await app.register(signInSettingsRoutes, { ctx });
  await app.register(setupRoutes, { ctx });
  await app.register(demoRoutes, { ctx });
  await app.register(membersRoutes, { ctx });
  await app.register(invitationsRoutes, { ctx });
  await app.register(groupsRoutes, { ctx });
  await app.register(gatewaysRoutes, { ctx });
  await app.register(phoneEnrolmentRoutes, { ctx });
  await app.register(braceletsRoutes, { ctx });
  await app.register(wearersRoutes, { ctx });
  await app.register(peopleRoutes, { ctx });
  await app.register(auditRoutes, { ctx });
  await app.register(alertsRoutes, { ctx });
  await app.register(heatRuleRoutes, { ctx });
  await app.register(fhirRoutes, { ctx });
  await app.register(apiTokensRoutes, { ctx });
  await app.register(alertPolicyRoutes, { ctx });
  await app.register(siteHeatPlugin, { ctx });
  await app.register(deviceDataRoutes, { ctx });
  await app.register(alertSettingsRoutes, { ctx });
  await app.register(alertOutboxPlugin, { ctx });
  await app.register(familyNoticesRoutes, { ctx });
  await app.register(nightRoundRoutes, { ctx });
  await app.register(personDataRoutes, { ctx });
  await app.register(accessLogRoutes, { ctx });
  await app.register(notificationsPlugin, { ctx });
  await app.register(chatChannelsRoutes, { ctx });
  await app.register(liveRoutes, { ctx });
  await app.register(webhooksPlugin, { ctx });
  await app.register(gatewaySilencePlugin, { ctx });
  await app.register(channelHealthPlugin, { ctx });
  await app.register(dataPathPlugin, { ctx });
  await app.register(vendorGatewayRoutes, { ctx });
  await app.register(unknownDevicesRoutes, { ctx });
  await app.register(gatewayRefusalsRoutes, { ctx });
  await app.register(sitesRoutes, { ctx });
  await app.register(placesRoutes, { ctx });

  if (opts.serveWeb !== false && existsSync(join(ctx.config.webDist, 'index.html'))) {
    const webDist = ctx.config.webDist;
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      // The build's .br and .gz beside each text file (apps/web/vite.precompress.config.ts),
      // for a browser that accepts them; with Vary: accept-encoding.
      preCompressed: true,
      // Hashed build assets never change; index.html must be revalidated so a new build is picked up.
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(`${sep}assets${sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
    // History fallback: any GET outside the API that is not a file gets the app's index. A catch-all route, not a
    // second setNotFoundHandler: the error handler already owns the root 404 and Fastify allows only one.
    app.get('/*', { schema: { hide: true }, config: { public: true } }, (request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      const isApi = /^\/(v2|v3|gateway|monitoring|healthz|readyz)(\/|$)/.test(path);
      // A file path (a chunk of a build newer than this process's file list, say) is served if it exists
      // and is a 404 otherwise: answering index.html would make the browser run HTML as a script.
      const looksLikeFile = /\.[a-z0-9]+$/i.test(path);
      // The phone gateway (issue 16) is its own app under /phone/, the scope of its service worker: /phone itself
      // is redirected there (the browser keeps the #enrol= fragment across the redirect), and its paths get its
      // own page, never the console's.
      if (request.method === 'GET' && path === '/phone') {
        const query = request.url.slice(path.length);
        return reply.redirect(`/phone/${query}`, 302);
      }
      if (request.method === 'GET' && path.startsWith('/phone/') && !looksLikeFile) {
        if (existsSync(join(webDist, 'phone', 'index.html')))
          return reply.sendFile('phone/index.html');
      }
      if (request.method === 'GET' && !isApi && !looksLikeFile) return reply.sendFile('index.html');
      if (request.method === 'GET' && looksLikeFile && !isApi) {
        const file = normalize(decodeURIComponent(path)).replace(/^([/\\])+/, '');
        if (!file.startsWith('..') && existsSync(join(webDist, file))) return reply.sendFile(file);
      }
      return reply.code(404).send({
        statusCode: 404,
        error: 'Not Found',
        code: 'NOT_FOUND',
        message: `No route ${request.method} ${path}`,
      });
    });
  }
  return app;
}
