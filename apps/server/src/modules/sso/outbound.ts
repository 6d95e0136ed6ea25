import { isIPv6 } from 'node:net';
import type { CustomFetch } from 'openid-client';
import { pinnedRequest } from '../../lib/pinned-request.ts';
import { type HostResolver, resolveWebhookTarget } from '../../lib/webhook-url.ts';

/** An answer from the identity provider (discovery, keys, tokens, userinfo) is small; more is not read. */
const MAX_ANSWER_BYTES = 512 * 1024;

/** The issuer URL names a host the app does not send requests to (private, unresolvable, not https). */
export class OutboundRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

function bodyOf(body: unknown): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof URLSearchParams) return Buffer.from(body.toString(), 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new OutboundRefusedError('Unsupported request body');
}

/**
 * openid-client's fetch for every request to an identity provider, under the same outbound rules as webhooks and the
 * domain proof's file (ADR 20, ADR 31): the URL's host is resolved and checked first (no private, link-local or
 * metadata addresses; https only unless DOMAIN_PROOF_ALLOW_HTTP opens loopback for tests and development), and the
 * connection goes to the checked address only (no second lookup: DNS rebinding), reading at most 512 KiB.
 */
export function pinnedFetch(options: { allowHttp: boolean; resolveHost: HostResolver }): CustomFetch {
  return async (url, init) => {
    const target = await resolveWebhookTarget(
      url,
      { requireHttps: !options.allowHttp, allowPrivate: options.allowHttp },
      options.resolveHost,
    );
    if (!target.ok) throw new OutboundRefusedError(target.message);
    const [address] = target.addresses;
    if (!address) throw new OutboundRefusedError('The issuer has no address.');
    const method = init.method.toUpperCase();
    if (method !== 'GET' && method !== 'POST') throw new OutboundRefusedError(`Unsupported method ${method}`);
    const body = bodyOf(init.body);
    const answer = await pinnedRequest(
      target.url,
      { address, family: isIPv6(address) ? 6 : 4 },
      {
        method,
        headers: { ...init.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        ...(body ? { body } : {}),
        maxBytes: MAX_ANSWER_BYTES,
        signal: init.signal ?? AbortSignal.timeout(10_000),
      },
    );
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
      for (const one of [value].flat()) headers.append(name, one);
    }
    const empty = answer.status === 204 || answer.status === 304 || answer.status < 200;
    return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers });
  };
}
