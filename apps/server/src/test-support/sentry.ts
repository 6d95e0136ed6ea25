import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/**
 * A local stand-in for Sentry's ingestion endpoint (`POST /api/{projectId}/envelope/`), so tests drive the real Sentry
 * SDKs over real HTTP. It keeps every envelope it is sent: the raw text (to prove what never leaves the machine) and
 * its items parsed (header line, then a header and a payload line per item; gzip bodies unpacked). `GET /received`
 * answers what it holds, for tests in another process (the browser tests).
 */

export const SENTRY_TEST_PUBLIC_KEY = '0123456789abcdef0123456789abcdef';
export const SENTRY_TEST_PROJECT_ID = '42';

export type EnvelopeItem = { type: string; payload: Record<string, unknown> };
export type ReceivedEnvelope = { raw: string; items: EnvelopeItem[] };

/** The fields of an error event the tests read. */
export type SentryErrorEvent = {
  event_id: string;
  environment?: string;
  tags?: Record<string, string>;
  request?: Record<string, unknown>;
  exception?: { values?: { type?: string; value?: string }[] };
  user?: Record<string, unknown>;
};

export type SentryStandIn = {
  /** The DSN to configure (SENTRY_DSN): this stand-in's origin, its public key and project. */
  dsn: string;
  origin: string;
  received: ReceivedEnvelope[];
  /** The error events received so far (items of type `event`). */
  errorEvents(): SentryErrorEvent[];
  close(): Promise<void>;
};

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** An envelope: a header line, then per item a header line (`{type, length?}`) and its payload. */
export function parseEnvelope(raw: string): EnvelopeItem[] {
  const lines = raw.split('\n');
  const items: EnvelopeItem[] = [];
  // Payloads of the types we read are single-line JSON; attachments and replay segments may not be, and are skipped.
  for (let i = 1; i + 1 < lines.length; i += 2) {
    const header = lines[i];
    const payload = lines[i + 1];
    if (!header || payload === undefined) break;
    try {
      const { type } = JSON.parse(header) as { type: string };
      items.push({ type, payload: JSON.parse(payload) as Record<string, unknown> });
    } catch {
      items.push({ type: 'unparsed', payload: {} });
    }
  }
  return items;
}

export function errorEventsOf(received: ReceivedEnvelope[]): SentryErrorEvent[] {
  return received.flatMap((envelope) =>
    envelope.items
      .filter((item) => item.type === 'event')
      .map((item) => item.payload as unknown as SentryErrorEvent),
  );
}

export async function startSentryStandIn(port = 0): Promise<SentryStandIn> {
  const received: ReceivedEnvelope[] = [];
  const server: Server = createServer((request, response) => {
    // Browsers send reports cross-origin (the page's origin is not this one).
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Access-Control-Allow-Headers', '*');
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end();
      return;
    }
    if (request.method === 'GET' && request.url === '/received') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(received));
      return;
    }
    if (request.method === 'POST' && request.url?.startsWith(`/api/${SENTRY_TEST_PROJECT_ID}/envelope/`)) {
      void readBody(request).then((body) => {
        const unpacked = request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
        const raw = unpacked.toString('utf8');
        received.push({ raw, items: parseEnvelope(raw) });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    dsn: `http://${SENTRY_TEST_PUBLIC_KEY}@${origin.slice('http://'.length)}/${SENTRY_TEST_PROJECT_ID}`,
    origin,
    received,
    errorEvents: () => errorEventsOf(received),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
