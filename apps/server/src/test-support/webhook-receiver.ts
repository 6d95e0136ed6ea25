import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP receiver on loopback for webhook tests: it records every request and answers as the test says. */

export type ReceivedDelivery = {
  path: string;
  /** The Standard Webhooks headers, as `standardwebhooks`' `verify` takes them. */
  headers: Record<string, string>;
  contentType: string;
  body: string;
};

/** How to answer the nth request (1-based): a status and body, or `hang` to hold it open until the receiver closes. */
export type Answer = { status: number; body?: string } | 'hang';

export type WebhookReceiver = {
  url: string;
  port: number;
  received: ReceivedDelivery[];
  /** Resolves once `count` requests have arrived; throws after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
};

const HEADER_NAMES = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];

function webhookHeaders(request: IncomingMessage): Record<string, string> {
  return Object.fromEntries(HEADER_NAMES.map((name) => [name, String(request.headers[name] ?? '')]));
}

export async function startWebhookReceiver(
  answer: (n: number, delivery: ReceivedDelivery) => Answer = () => ({ status: 200, body: 'ok' }),
): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery = {
        path: request.url ?? '',
        headers: webhookHeaders(request),
        contentType: String(request.headers['content-type'] ?? ''),
        body: Buffer.concat(chunks).toString(),
      };
      received.push(delivery);
      const reply = answer(received.length, delivery);
      if (reply === 'hang') return;
      response.statusCode = reply.status;
      response.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    async waitFor(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`the receiver got ${received.length} of ${count} deliveries in ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return received.slice(0, count);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
