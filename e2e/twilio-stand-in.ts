import { createServer, type IncomingMessage } from 'node:http';
import { startTwilioStandIn, TWILIO_TEST_CREDENTIALS } from '../apps/server/src/test-support/twilio.ts';
import { twilioAppBaseURL, twilioAppPort, twilioStandInControlPort, twilioStandInPort } from './ports.ts';

/**
 * The browser tests' Twilio (issue #35): the server tests' stand-in of the Messages API as a process of its own, which
 * Playwright starts (playwright.config.ts) on a fixed port, so that the app configured with it (TWILIO_API_URL) sends
 * its code texts here. Its control port lets a journey read the texts (GET /received?to=+1…) and reply as the consumer
 * (POST /reply `{from, body}`): the reply is posted to the app's inbound webhook signed as Twilio signs it, over the
 * URL Twilio would be given (the app's PUBLIC_URL), and the app's TwiML answer is handed back.
 */
const standIn = await startTwilioStandIn(TWILIO_TEST_CREDENTIALS, { port: twilioStandInPort });
// Twilio reaching the app: the loopback address, while the signature covers PUBLIC_URL.
standIn.callbackOrigin = `http://127.0.0.1:${twilioAppPort}`;
const inboundUrl = `${twilioAppBaseURL}/api/webhooks/twilio/inbound`;

function readJson(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      } catch (error) {
        reject(error);
      }
    });
    request.on('error', reject);
  });
}

const control = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://control');
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  try {
    if (request.method === 'GET' && url.pathname === '/received') {
      const to = url.searchParams.get('to');
      send(200, { results: standIn.received.filter((message) => to === null || message.to === to) });
    } else if (request.method === 'POST' && url.pathname === '/reply') {
      const body = await readJson(request);
      const from = typeof body === 'object' && body !== null && 'from' in body ? String(body.from) : '';
      const text = typeof body === 'object' && body !== null && 'body' in body ? String(body.body) : '';
      send(200, await standIn.replyFrom(from, text, { inboundUrl }));
    } else {
      send(404, { detail: 'Not found.' });
    }
  } catch (error) {
    send(500, { detail: error instanceof Error ? error.message : String(error) });
  }
});
await new Promise<void>((resolve) => control.listen(twilioStandInControlPort, '127.0.0.1', resolve));
console.log(`Twilio stand-in at ${standIn.url}, control at http://127.0.0.1:${twilioStandInControlPort}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    control.close();
    void standIn.close().then(() => process.exit(0));
  });
}
