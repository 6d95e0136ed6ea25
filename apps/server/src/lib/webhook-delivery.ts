import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { type PinnedAddress, pinnedRequest } from './pinned-request.ts';
import { isAllowedAddress } from './webhook-url.ts';

export type ResolvedAddress = PinnedAddress;

/** Resolves a host name to the one address a delivery will connect to. */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress>;

export type DeliveryError =
  | 'invalid_url'
  | 'blocked_address'
  | 'dns_failed'
  | 'timeout'
  | 'connection_failed'
  | 'redirect_not_followed';

export type DeliveryResult = {
  ok: boolean;
  /** The receiver's HTTP status, or null when it never answered. */
  statusCode: number | null;
  /** Time until the receiver's status line arrived, or until the attempt gave up. */
  latencyMs: number;
  /** The first 1 KB of the receiver's answer, as text. */
  responseSnippet: string;
  error: DeliveryError | null;
};

export type DeliverWebhookInput = {
  url: string;
  headers: Record<string, string>;
  body: string;
  resolve?: ResolveHost;
  /** Lets tests and local development deliver to loopback (only: never link-local or private ranges). */
  allowPrivate: boolean;
  timeoutMs?: number;
};

const SNIPPET_BYTES = 1024;

// The address rule is the save-time check's own (webhook-url.ts): one definition of "public", applied again here at
// send time on the address actually connected to, since DNS may answer differently by then.

const systemResolve: ResolveHost = async (hostname) => {
  const { address, family } = await dnsLookup(hostname);
  return { address, family };
};

class AttemptFailure extends Error {
  readonly code: DeliveryError;
  constructor(code: DeliveryError) {
    super(code);
    this.code = code;
  }
}

/**
 * One delivery attempt: POST the body and report what happened. Never throws for anything the network or the
 * receiver does; the caller records the result and schedules the retry.
 *
 * The host is resolved once, the address checked, and the connection pinned to that same address (the URL's host
 * still goes in the Host header and the TLS server name). Resolving again at connect time would let a DNS answer
 * that changes between check and connect (rebinding) reach an internal address.
 */
export async function deliverWebhook(input: DeliverWebhookInput): Promise<DeliveryResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), input.timeoutMs ?? 10_000);
  try {
    const url = parseUrl(input.url);
    const target = await untilAborted(resolveTarget(url, input.resolve ?? systemResolve), controller.signal);
    if (!isAllowedAddress(target.address, input.allowPrivate)) throw new AttemptFailure('blocked_address');
    const answer = await post(url, target, input, controller.signal, started);
    const redirect = answer.statusCode >= 300 && answer.statusCode < 400;
    return {
      ok: answer.statusCode >= 200 && answer.statusCode < 300,
      statusCode: answer.statusCode,
      latencyMs: answer.latencyMs,
      responseSnippet: answer.snippet,
      error: redirect ? 'redirect_not_followed' : null,
    };
  } catch (error) {
    const code: DeliveryError =
      error instanceof AttemptFailure
        ? error.code
        : controller.signal.aborted
          ? 'timeout'
          : 'connection_failed';
    return { ok: false, statusCode: null, latencyMs: elapsed(), responseSnippet: '', error: code };
  } finally {
    clearTimeout(timer);
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AttemptFailure('invalid_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AttemptFailure('invalid_url');
  return url;
}

async function resolveTarget(url: URL, resolve: ResolveHost): Promise<ResolvedAddress> {
  // URL() has already normalised IP literals (0x7f.1 → 127.0.0.1); IPv6 ones keep their brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValid(host)) return { address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 };
  try {
    return await resolve(host);
  } catch {
    throw new AttemptFailure('dns_failed');
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(new AttemptFailure('timeout'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

type Answer = { statusCode: number; latencyMs: number; snippet: string };

async function post(
  url: URL,
  target: ResolvedAddress,
  input: DeliverWebhookInput,
  signal: AbortSignal,
  started: number,
): Promise<Answer> {
  const body = Buffer.from(input.body);
  const answer = await pinnedRequest(url, target, {
    method: 'POST',
    headers: {
      'user-agent': 'Veriform-Webhooks',
      ...input.headers,
      'content-type': 'application/json',
      'content-length': String(body.length),
    },
    body,
    maxBytes: SNIPPET_BYTES,
    signal,
  });
  return {
    statusCode: answer.status,
    latencyMs: Math.round(answer.respondedAt - started),
    snippet: answer.body.toString('utf8'),
  };
}
