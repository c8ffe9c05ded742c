import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  createChatLinkCode,
  deleteChatChannel,
  deleteChatLink,
  lineCallback,
  lineWorksCallback,
  listChatChannels,
  listChatLinks,
  putChatChannel,
  slackCallback,
  testChatChannel,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { chatCallbacksService } from './chat-callbacks.service.js';
import { chatChannelsService } from './chat-channels.service.js';
import { chatLinksService } from './chat-links.service.js';

/** An organisation's chat channels (/settings) and one's own links to chat users (/user/info). */
export const chatChannelsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const channels = chatChannelsService(ctx);
  const links = chatLinksService(ctx);
  serve(app, listChatChannels, (req) => channels.list(req.actor, req.params.organizationId));
  serve(app, putChatChannel, (req) =>
    channels.put(req.actor, req.params.organizationId, req.params.channel, req.body),
  );
  serve(app, deleteChatChannel, (req) =>
    channels.remove(req.actor, req.params.organizationId, req.params.channel),
  );
  serve(app, testChatChannel, (req) =>
    channels.test(req.actor, req.params.organizationId, req.params.channel),
  );
  serve(app, listChatLinks, (req) => links.list(req.actor));
  serve(app, createChatLinkCode, (req) => links.createCode(req.actor));
  serve(app, deleteChatLink, (req) => links.remove(req.actor, req.params.channel));
  await app.register(chatCallbacksRoutes, { ctx });
};

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * The callbacks of Slack and the LINE WORKS bot: public (no session), each proven by its signature over
 * the raw body, so this plugin keeps the body as sent beside the parsed one (its own parsers only).
 */
const chatCallbacksRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const raws = new WeakMap<object, string>();
  app.removeContentTypeParser(['application/json', 'application/x-www-form-urlencoded']);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 128 * 1024 },
    (request, body, done) => {
      raws.set(request, body as string);
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 128 * 1024 },
    (request, body, done) => {
      raws.set(request, body as string);
      try {
        done(null, JSON.parse(body as string));
      } catch {
        const err = Object.assign(new Error('The body is not JSON'), { statusCode: 400 });
        done(err, undefined);
      }
    },
  );
  const callbacks = chatCallbacksService(ctx);
  serve(app, slackCallback, (req) =>
    callbacks.slack(
      req.params.organizationId,
      raws.get(req) ?? '',
      {
        signature: header(req, 'x-slack-signature'),
        timestamp: header(req, 'x-slack-request-timestamp'),
      },
      req.body,
    ),
  );
  serve(app, lineCallback, (req) =>
    callbacks.line(
      req.params.organizationId,
      raws.get(req) ?? '',
      header(req, 'x-line-signature'),
      req.body,
    ),
  );
  serve(app, lineWorksCallback, (req) =>
    callbacks.lineWorks(
      req.params.organizationId,
      raws.get(req) ?? '',
      header(req, 'x-works-signature'),
      req.body,
    ),
  );
};
