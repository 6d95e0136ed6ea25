import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Twilio's Messages API (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`), so tests drive
 * the real `twilio` SDK over real HTTP: basic auth checked, form-encoded body, a 201 message resource, and Twilio's
 * error answers. The app reaches it through TWILIO_API_URL.
 */

export const TWILIO_TEST_CREDENTIALS = {
  accountSid: `AC${'0123456789abcdef'.repeat(2)}`,
  authToken: 'test-auth-token-0123456789abcdef',
  from: '+15005550006',
};

export type ReceivedSms = { to: string; from: string; body: string; sid: string | null; status: number };
export type TwilioAnswer = { status: number; body: Record<string, unknown> };

/** Twilio's error body: `{code, message, more_info, status}`. */
export function twilioError(status: number, code: number, message: string): TwilioAnswer {
  return { status, body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

export const TWILIO_ERRORS = {
  invalidTo: twilioError(400, 21211, "The 'To' number +1201555 is not a valid phone number."),
  notMobile: twilioError(400, 21614, "'To' number is not a valid mobile number"),
  unsubscribed: twilioError(400, 21610, 'Attempt to send to unsubscribed recipient'),
  tooManyRequests: twilioError(429, 20429, 'Too Many Requests'),
  serverError: twilioError(500, 20500, 'Internal Server Error'),
};

export type TwilioStandIn = {
  /** The origin to put in TWILIO_API_URL. */
  url: string;
  /** Every message request that passed authentication, in arrival order (failed ones included). */
  received: ReceivedSms[];
  /** Requests refused for their credentials. */
  unauthorized: number;
  /** The next answers for messages to `to`, used up in order; after them, and for other numbers, a 201. */
  script(to: string, ...answers: TwilioAnswer[]): void;
  /** Answers messages to `to` only after `ms` (a slow provider). */
  hold(to: string, ms: number): void;
  env(): Record<string, string>;
  close(): Promise<void>;
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function reply(response: ServerResponse, answer: TwilioAnswer): void {
  response.writeHead(answer.status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(answer.body));
}

export async function startTwilioStandIn(credentials = TWILIO_TEST_CREDENTIALS): Promise<TwilioStandIn> {
  const received: ReceivedSms[] = [];
  const scripts = new Map<string, TwilioAnswer[]>();
  const holds = new Map<string, number>();
  const state = { unauthorized: 0 };
  const expectedAuth = `Basic ${Buffer.from(`${credentials.accountSid}:${credentials.authToken}`).toString('base64')}`;
  const path = `/2010-04-01/Accounts/${credentials.accountSid}/Messages.json`;

  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    if (request.headers.authorization !== expectedAuth) {
      state.unauthorized += 1;
      reply(response, twilioError(401, 20003, 'Authentication Error - invalid username'));
      return;
    }
    if (request.method !== 'POST' || request.url !== path) {
      reply(response, twilioError(404, 20404, `The requested resource ${request.url} was not found`));
      return;
    }
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      reply(response, twilioError(400, 21601, 'Expected a form-encoded body'));
      return;
    }
    const form = new URLSearchParams(body);
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    const text = form.get('Body') ?? '';
    const hold = holds.get(to);
    if (hold) await new Promise((resolve) => setTimeout(resolve, hold));
    const answer = scripts.get(to)?.shift();
    if (answer) {
      received.push({ to, from, body: text, sid: null, status: answer.status });
      reply(response, answer);
      return;
    }
    const sid = `SM${randomBytes(16).toString('hex')}`;
    received.push({ to, from, body: text, sid, status: 201 });
    const now = new Date().toUTCString();
    reply(response, {
      status: 201,
      body: {
        sid,
        account_sid: credentials.accountSid,
        api_version: '2010-04-01',
        body: text,
        date_created: now,
        date_updated: now,
        date_sent: null,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from,
        messaging_service_sid: null,
        num_media: '0',
        num_segments: '1',
        price: null,
        price_unit: 'USD',
        status: 'queued',
        subresource_uris: { media: `${path.replace('.json', '')}/${sid}/Media.json` },
        to,
        uri: `${path.replace('.json', '')}/${sid}.json`,
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    received,
    get unauthorized() {
      return state.unauthorized;
    },
    script(to, ...answers) {
      scripts.set(to, [...(scripts.get(to) ?? []), ...answers]);
    },
    hold(to, ms) {
      holds.set(to, ms);
    },
    env: () => ({
      TWILIO_ACCOUNT_SID: credentials.accountSid,
      TWILIO_AUTH_TOKEN: credentials.authToken,
      TWILIO_FROM: credentials.from,
      TWILIO_API_URL: url,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
