import type { OutboxMessage } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import { listOutboxMessages } from '../messaging/outbox.ts';

/**
 * Verification codes as a consumer reads them: from the development outbox. Delivery is asynchronous (a queued job),
 * so these poll until the message is there instead of expecting it at once.
 */

const CODE = /\b(\d{6})\b/;
const POLL_INTERVAL_MS = 25;
const DEFAULT_TIMEOUT_MS = 10_000;

export type SentCode = { code: string; messageId: number; message: OutboxMessage };

/**
 * The newest message to `to` (an E.164 number or an e-mail address) that carries a 6-digit code, and that code.
 * `afterId`: only a message newer than that outbox id counts (a resend, when an older code to `to` exists).
 */
export async function latestCodeMessageTo(
  app: FastifyInstance,
  to: string,
  options: { afterId?: number; timeoutMs?: number } = {},
): Promise<SentCode> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  for (;;) {
    const messages = await listOutboxMessages(app.services.db, { to });
    for (const message of messages) {
      if (options.afterId !== undefined && message.id <= options.afterId) continue;
      const code = message.text.match(CODE)?.[1];
      if (code) return { code, messageId: message.id, message };
    }
    if (Date.now() > deadline) throw new Error(`no verification code sent to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

/** The code of the newest message to `to` that has one (see latestCodeMessageTo). */
export async function latestCodeTo(
  app: FastifyInstance,
  to: string,
  options: { afterId?: number; timeoutMs?: number } = {},
): Promise<string> {
  return (await latestCodeMessageTo(app, to, options)).code;
}

/** The newest outbox id of messages to `to` (0 when none): pass it as `afterId` to wait for the next one. */
export async function lastOutboxIdTo(app: FastifyInstance, to: string): Promise<number> {
  const [newest] = await listOutboxMessages(app.services.db, { to });
  return newest?.id ?? 0;
}
