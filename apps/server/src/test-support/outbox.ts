import { invitationPages, type OutboxMessage, type TokenLinkKind, tokenLinkPages } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import { listOutboxMessages } from '../messaging/outbox.ts';
import { jobsSettled } from './jobs.ts';

/** Messages to `to`, newest first, after every due e-mail job has finished. */
export async function outboxFor(app: FastifyInstance, to: string): Promise<OutboxMessage[]> {
  await jobsSettled(app);
  return listOutboxMessages(app.services.db, { to });
}

export type TokenLink = { url: string; path: string; uidb64: string; token: string };

/** The token link of `kind` (`/auth/…/confirm/…`, or the cancel link) of the newest message to `to` that has one. */
export async function latestLink(app: FastifyInstance, to: string, kind: TokenLinkKind): Promise<TokenLink> {
  const pattern = new RegExp(`(https?://[^\\s/]+)(${tokenLinkPages[kind]}([\\w-]+)/([\\w-]+)/)`);
  for (const message of await outboxFor(app, to)) {
    const match = message.text.match(pattern);
    if (match?.[2] && match[3] && match[4]) {
      return { url: `${match[1]}${match[2]}`, path: match[2], uidb64: match[3], token: match[4] };
    }
  }
  throw new Error(`no ${kind} link for ${to}`);
}

/** The verification link of the newest message to `to`, split into its parts. */
export function latestVerifyLink(app: FastifyInstance, to: string): Promise<TokenLink> {
  return latestLink(app, to, 'verify-email');
}

/** The JSON of the initial-data script in a page. */
export function initialDataOf(html: string): unknown {
  const match = html.match(/<script id="initial-data" type="application\/json">(.*?)<\/script>/s);
  if (!match?.[1]) throw new Error('no initial data in the page');
  return JSON.parse(match[1]);
}

/** The invitation key of the newest invitation e-mail to `to` (from its `/follow-invitation/?key=` link). */
export async function latestInvitationKey(app: FastifyInstance, to: string): Promise<string> {
  for (const message of await outboxFor(app, to)) {
    const match = message.text.match(
      new RegExp(`https?://[^\\s/]+${invitationPages.follow}\\?key=([\\w-]+)`),
    );
    if (match?.[1]) return match[1];
  }
  throw new Error(`no invitation link for ${to}`);
}
