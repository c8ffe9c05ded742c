import { type ChatRequest, type ReadOk } from './chat-http.js';
import { CHAT_LABELS, type ChatNotice } from './chat-notice.js';

/**
 * Microsoft Teams through a Workflows webhook ("Create incoming webhooks with Workflows for Microsoft
 * Teams"): the flow "Post to a channel when a webhook request is received" takes a message with one
 * Adaptive Card attachment. A card with the notice and an Action.OpenUrl to the alert; Teams has no 確認
 * (the flow cannot call us back).
 */
export interface TeamsConfig {
  webhookUrl: string;
}

export function teamsCard(notice: ChatNotice) {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: notice.title, weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'TextBlock', text: notice.text, wrap: true },
          ],
          ...(notice.link
            ? {
                actions: [{ type: 'Action.OpenUrl', title: CHAT_LABELS.details, url: notice.link }],
              }
            : {}),
        },
      },
    ],
  };
}

export const teamsRequest = (c: TeamsConfig, notice: ChatNotice): ChatRequest => ({
  url: c.webhookUrl,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(teamsCard(notice)),
});

/** The flow answers 202 Accepted with no body: the receipt is the 2xx (there is no message id). */
export const readTeamsOk: ReadOk<null> = () => ({ ok: true, value: null });
