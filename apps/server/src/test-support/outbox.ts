import type { OutboxMessage } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import { listOutboxMessages } from '../messaging/outbox.ts';

/** Messages to `to`, newest first, after every background send has finished. */
export async function outboxFor(app: FastifyInstance, to: string): Promise<OutboxMessage[]> {
  await app.services.background.idle();
  return listOutboxMessages(app.services.db, { to });
}

/** The verification link of the newest message to `to`, split into its parts. */
export async function latestVerifyLink(app: FastifyInstance, to: string) {
  const [message] = await outboxFor(app, to);
  const match = message?.text.match(
    /(https?:\/\/[^\s/]+)(\/auth\/verify-email\/confirm\/([\w-]+)\/([\w-]+)\/)/,
  );
  if (!match?.[2] || !match[3] || !match[4]) throw new Error(`no verification link for ${to}`);
  return { url: `${match[1]}${match[2]}`, path: match[2], uidb64: match[3], token: match[4] };
}

/** The JSON of the initial-data script in a page. */
export function initialDataOf(html: string): unknown {
  const match = html.match(/<script id="initial-data" type="application\/json">(.*?)<\/script>/s);
  if (!match?.[1]) throw new Error('no initial data in the page');
  return JSON.parse(match[1]);
}
