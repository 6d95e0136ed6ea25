import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  LOOKUP_NUMBERS,
  type LookupAnswerOfStandIn,
  lookupAnswer,
  type ReceivedLookup,
} from './twilio-lookup.ts';

/**
 * A local stand-in for Twilio's Messages API (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`), so tests drive
 * the real `twilio` SDK over real HTTP: basic auth checked, form-encoded body, a 201 message resource, and Twilio's
 * error answers. The app reaches it through TWILIO_API_URL.
 *
 * Like Twilio it reports each accepted message's status to the message's `StatusCallback`, signed with
 * `X-Twilio-Signature` (computed here independently of the SDK the app checks it with). The reports go out when a test
 * asks (`report`), once the app has stored the message's SID: the test decides the order, nothing is timed. They are
 * sent over HTTP to `callbackOrigin` (the app listening on a loopback port), standing for the proxy behind the public
 * URL the signature covers.
 *
 * It answers Lookup v2 too (`GET /v2/PhoneNumbers/{number}`, issue #36), each case chosen by the number asked: the
 * table is in twilio-lookup.ts.
 */

/** Twilio's request signature: HMAC-SHA1 with the auth token over the URL and each field's name and value, sorted. */
export function twilioSignature(
  authToken: string,
  url: string,
  fields: Readonly<Record<string, string>>,
): string {
  const data = Object.keys(fields)
    .sort()
    .reduce((acc, key) => `${acc}${key}${fields[key] ?? ''}`, url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Lookup v2's resource: `/v2/PhoneNumbers/{number}` (on lookups.twilio.com, which TWILIO_API_URL stands for too). */
const LOOKUP_PATH = '/v2/PhoneNumbers/';

export type StatusReport = { status: string; errorCode?: number };
export type SentReport = { sid: string; status: string; answer: number };

export const TWILIO_TEST_CREDENTIALS = {
  accountSid: `AC${'0123456789abcdef'.repeat(2)}`,
  authToken: 'test-auth-token-0123456789abcdef',
  from: '+15005550006',
};

export type ReceivedSms = {
  to: string;
  from: string;
  body: string;
  sid: string | null;
  status: number;
  statusCallback: string | null;
};
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
  /** Answers messages to `to`, and lookups of `to`, only after `ms` (a slow provider). */
  hold(to: string, ms: number): void;
  /** Every lookup request that passed authentication, in arrival order (failed ones included). */
  lookups: ReceivedLookup[];
  /** The next answers to lookups of `phone`, used up in order, before its number's answer of the table. */
  scriptLookup(phone: string, ...answers: TwilioAnswer[]): void;
  /** How long the slow number (LOOKUP_NUMBERS.slow) takes to answer: 5 s unless a test shortens it. */
  slowMs: number;
  /** How long every other lookup takes to answer (a benchmark's stand-in for Twilio's latency): 0 unless set. */
  lookupLatencyMs: number;
  /** The stand-in's clock for the SIM swap answers ("yesterday", "a year ago"): the real time unless set. */
  now: () => Date;
  /** The status reports to send for messages to `to` (default: sent, then delivered). */
  reports(to: string, ...reports: StatusReport[]): void;
  /**
   * Sends the reports of messages to `to` before answering their create (each awaited), as Twilio may when the app is
   * slow to store the SID: the callbacks arrive before the app knows the message.
   */
  reportEarly(to: string): void;
  /** Where reports are posted (the app's loopback origin); the signature still covers the message's StatusCallback. */
  callbackOrigin: string | undefined;
  /**
   * Sends the message's reports in order (or the ones given), as Twilio would, each awaited; answers what the app
   * replied. `signature` overrides the header (null: none) to play a forger.
   */
  report(
    sid: string,
    reports?: StatusReport[],
    options?: { signature?: string | null },
  ): Promise<SentReport[]>;
  /** Every report sent, with the app's answer. */
  sentReports: SentReport[];
  /**
   * A consumer's reply from `from` to the number our codes come from, posted as Twilio posts an inbound message to the
   * number's messaging webhook (`inboundUrl`, which the signature covers; sent to `callbackOrigin`). `messageSid`
   * repeats a delivery; `signature` overrides the header (null: none). Answers the app's status and body.
   */
  replyFrom(
    from: string,
    body: string,
    options: { inboundUrl: string; messageSid?: string; signature?: string | null },
  ): Promise<{ status: number; body: string; messageSid: string }>;
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

/**
 * Starts the stand-in on a loopback port: any free one, or `port` (the browser tests' stand-in, a process of its own
 * whose address the app's environment names before it starts: e2e/twilio-stand-in.ts).
 */
export async function startTwilioStandIn(
  credentials = TWILIO_TEST_CREDENTIALS,
  options: { port?: number } = {},
): Promise<TwilioStandIn> {
  const received: ReceivedSms[] = [];
  const scripts = new Map<string, TwilioAnswer[]>();
  const holds = new Map<string, number>();
  const reportScripts = new Map<string, StatusReport[]>();
  const early = new Set<string>();
  const sentReports: SentReport[] = [];
  const lookups: ReceivedLookup[] = [];
  const lookupScripts = new Map<string, TwilioAnswer[]>();
  const state: {
    unauthorized: number;
    callbackOrigin: string | undefined;
    slowMs: number;
    lookupLatencyMs: number;
    now: () => Date;
  } = {
    unauthorized: 0,
    callbackOrigin: undefined,
    slowMs: 5_000,
    lookupLatencyMs: 0,
    now: () => new Date(),
  };
  const expectedAuth = `Basic ${Buffer.from(`${credentials.accountSid}:${credentials.authToken}`).toString('base64')}`;
  const path = `/2010-04-01/Accounts/${credentials.accountSid}/Messages.json`;

  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    if (request.headers.authorization !== expectedAuth) {
      state.unauthorized += 1;
      reply(response, twilioError(401, 20003, 'Authentication Error - invalid username'));
      return;
    }
    const target = new URL(request.url ?? '/', 'http://stand-in');
    if (request.method === 'GET' && target.pathname.startsWith(LOOKUP_PATH)) {
      const phone = decodeURIComponent(target.pathname.slice(LOOKUP_PATH.length));
      // A held answer may outlive the test that asked (its client timed out): never an unhandled rejection.
      await answerLookup(response, phone, target.searchParams).catch(() => response.destroy());
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
    const statusCallback = form.get('StatusCallback');
    const hold = holds.get(to);
    if (hold) await new Promise((resolve) => setTimeout(resolve, hold));
    const answer = scripts.get(to)?.shift();
    if (answer) {
      received.push({ to, from, body: text, sid: null, status: answer.status, statusCallback });
      reply(response, answer);
      return;
    }
    const sid = `SM${randomBytes(16).toString('hex')}`;
    received.push({ to, from, body: text, sid, status: 201, statusCallback });
    if (early.has(to)) await report(sid);
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
  /** A lookup: scripted answers first, then the number's answer of the table (twilio-lookup.ts). */
  async function answerLookup(response: ServerResponse, phone: string, query: URLSearchParams) {
    const hold = phone === LOOKUP_NUMBERS.slow ? state.slowMs : (holds.get(phone) ?? state.lookupLatencyMs);
    if (hold) await new Promise((resolve) => setTimeout(resolve, hold));
    const answer: LookupAnswerOfStandIn =
      lookupScripts.get(phone)?.shift() ?? lookupAnswer(phone, query, state.now());
    lookups.push({
      phone,
      fields: query.get('Fields'),
      lastVerifiedDate: query.get('LastVerifiedDate'),
      status: answer.status,
    });
    if ('text' in answer) {
      response.writeHead(answer.status, { 'content-type': 'text/html' });
      response.end(answer.text);
      return;
    }
    reply(response, answer);
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  /**
   * Posts `fields` as Twilio posts a webhook: to `webhookUrl`'s path at `callbackOrigin`, signed over `webhookUrl`
   * itself (what Twilio was given), or with `signature` instead (null: none).
   */
  async function postSigned(
    webhookUrl: string,
    fields: Record<string, string>,
    signature: string | null | undefined,
  ): Promise<Response> {
    if (!state.callbackOrigin) throw new Error('callbackOrigin is not set');
    const target = new URL(webhookUrl);
    const origin = new URL(state.callbackOrigin);
    target.protocol = origin.protocol;
    target.host = origin.host;
    const header =
      signature === undefined ? twilioSignature(credentials.authToken, webhookUrl, fields) : signature;
    return fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(header === null ? {} : { 'x-twilio-signature': header }),
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  async function report(
    sid: string,
    given?: StatusReport[],
    options: { signature?: string | null } = {},
  ): Promise<SentReport[]> {
    const message = received.find((m) => m.sid === sid);
    const statusCallback = message?.statusCallback;
    if (!message || !statusCallback) throw new Error(`no message ${sid} with a StatusCallback`);
    const sent: SentReport[] = [];
    const list = given ?? reportScripts.get(message.to) ?? [{ status: 'sent' }, { status: 'delivered' }];
    for (const { status, errorCode } of list) {
      const fields: Record<string, string> = {
        AccountSid: credentials.accountSid,
        From: message.from,
        To: message.to,
        MessageSid: sid,
        SmsSid: sid,
        SmsStatus: status,
        MessageStatus: status,
        ApiVersion: '2010-04-01',
        ...(errorCode !== undefined ? { ErrorCode: String(errorCode) } : {}),
      };
      const response = await postSigned(statusCallback, fields, options.signature);
      await response.arrayBuffer();
      const result = { sid, status, answer: response.status };
      sent.push(result);
      sentReports.push(result);
    }
    return sent;
  }

  async function replyFrom(
    from: string,
    body: string,
    options: { inboundUrl: string; messageSid?: string; signature?: string | null },
  ): Promise<{ status: number; body: string; messageSid: string }> {
    const messageSid = options.messageSid ?? `SM${randomBytes(16).toString('hex')}`;
    const fields: Record<string, string> = {
      AccountSid: credentials.accountSid,
      MessageSid: messageSid,
      SmsMessageSid: messageSid,
      From: from,
      To: credentials.from,
      Body: body,
      NumMedia: '0',
      NumSegments: '1',
      ApiVersion: '2010-04-01',
    };
    const response = await postSigned(options.inboundUrl, fields, options.signature);
    return { status: response.status, body: await response.text(), messageSid };
  }

  return {
    url,
    received,
    lookups,
    sentReports,
    report,
    replyFrom,
    reports(to, ...list) {
      reportScripts.set(to, list);
    },
    reportEarly(to) {
      early.add(to);
    },
    get callbackOrigin() {
      return state.callbackOrigin;
    },
    set callbackOrigin(origin) {
      state.callbackOrigin = origin;
    },
    get unauthorized() {
      return state.unauthorized;
    },
    script(to, ...answers) {
      scripts.set(to, [...(scripts.get(to) ?? []), ...answers]);
    },
    hold(to, ms) {
      holds.set(to, ms);
    },
    scriptLookup(phone, ...answers) {
      lookupScripts.set(phone, [...(lookupScripts.get(phone) ?? []), ...answers]);
    },
    get slowMs() {
      return state.slowMs;
    },
    set slowMs(ms) {
      state.slowMs = ms;
    },
    get lookupLatencyMs() {
      return state.lookupLatencyMs;
    },
    set lookupLatencyMs(ms) {
      state.lookupLatencyMs = ms;
    },
    get now() {
      return state.now;
    },
    set now(clock) {
      state.now = clock;
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
