import { Resolver } from 'node:dns/promises';
import { DOMAIN_PROOF_FILE_PATH, DOMAIN_TXT_LABEL, type DomainProofMethod } from '@veriform/contracts';
import ipaddr from 'ipaddr.js';
import { pinnedRequest } from '../../lib/pinned-request.ts';
import { type HostResolver, resolveWebhookTarget } from '../../lib/webhook-url.ts';

/**
 * The two proofs that a company controls a domain (issue #33 item 10, ADR 31), each asked of the outside world with a
 * short deadline, and each answering what it found in words when it is not the token.
 *
 * The file is fetched as webhooks are sent (lib/webhook-url.ts, ADR 20): the host's addresses are resolved once and
 * every one must be public (a domain pointed at 127.0.0.1 or the cloud's metadata address must not make our server
 * read it), the connection is pinned to the address checked, nothing but https is asked, redirects are followed only
 * on the same host, and at most FILE_MAX_BYTES are read. DOMAIN_PROOF_ALLOW_HTTP (tests and development) lifts the
 * address checks and lets `localhost:<port>` and `127.0.0.1:<port>` be fetched over http://.
 */

/** The TXT records of a name, each as its character strings (node:dns's `resolveTxt` shape). Injected in tests. */
export type TxtLookup = (name: string) => Promise<string[][]>;

/** Each lookup and each fetch (its redirects included) gives up after this: an owner is waiting for the answer. */
export const PROOF_TIMEOUT_MS = 5_000;
/** A token file is one line of 61 characters; an HTML page answered instead is read this far. */
export const FILE_MAX_BYTES = 4_096;
/** Same-host redirects followed (`/.well-known/x` → `/.well-known/x/`, a CDN's canonical path). */
const MAX_REDIRECTS = 3;
/** What a finding quotes of what it found: enough to recognise, not a page of someone's HTML. */
const QUOTE_MAX = 80;
const USER_AGENT = 'Veriform-Domain-Verification (+https://veriform.app)';

/**
 * A resolver of our own (c-ares, not the operating system's getaddrinfo, which cannot ask for TXT records) with a
 * short per-try timeout; `servers` (`127.0.0.1:5353`) points it at another DNS server, as the tests do.
 */
export function createTxtLookup(options: { servers?: string[] } = {}): TxtLookup {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  if (options.servers) resolver.setServers(options.servers);
  return (name) => resolver.resolveTxt(name);
}

export type ProofFinding = { ok: true } | { ok: false; message: string };

export type ProofResult =
  | { verified: true; by: DomainProofMethod; findings: string[] }
  | { verified: false; findings: string[] };

/** `localhost:<port>` or `127.0.0.1:<port>`: only stored while DOMAIN_PROOF_ALLOW_HTTP is on (contracts' normalizeDomain). */
export const isLoopbackDomain = (domain: string) => domain.includes(':');

export const txtRecordNameOf = (domain: string) => `${DOMAIN_TXT_LABEL}.${domain}`;

/** https for every real domain; http for a loopback host with a port (DOMAIN_PROOF_ALLOW_HTTP only). */
export const fileUrlOf = (domain: string) =>
  `${isLoopbackDomain(domain) ? 'http' : 'https'}://${domain}${DOMAIN_PROOF_FILE_PATH}`;

/** Printable, one line, at most QUOTE_MAX characters, in quotes: a found value as a message may show it. */
function quoted(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
  const flat = value.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
  return JSON.stringify(flat.length > QUOTE_MAX ? `${flat.slice(0, QUOTE_MAX)}…` : flat);
}

class Timeout extends Error {}

/** The promise, or Timeout after `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const errorCodeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;

/** The TXT record `_veriform.<domain>`: one of its records must be the token (its strings joined, as DNS splits long ones). */
export async function checkTxtRecord(
  lookup: TxtLookup,
  domain: string,
  token: string,
): Promise<ProofFinding> {
  const name = txtRecordNameOf(domain);
  if (isLoopbackDomain(domain))
    return { ok: false, message: `DNS: a local host (${domain}) has no TXT record to look up.` };
  let records: string[][];
  try {
    records = await within(lookup(name), PROOF_TIMEOUT_MS);
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === 'ENOTFOUND' || code === 'ENODATA')
      return { ok: false, message: `DNS: no TXT record ${name}.` };
    if (error instanceof Timeout || code === 'ETIMEOUT')
      return { ok: false, message: `DNS: the lookup of ${name} timed out.` };
    return { ok: false, message: `DNS: the lookup of ${name} failed (${code ?? 'unknown error'}).` };
  }
  const values = records.map((strings) => strings.join(''));
  if (values.some((value) => value.trim() === token)) return { ok: true };
  if (values.length === 0) return { ok: false, message: `DNS: no TXT record ${name}.` };
  const shown = values.slice(0, 5).map(quoted).join(', ');
  const more = values.length > 5 ? ` and ${values.length - 5} more` : '';
  return {
    ok: false,
    message: `DNS: TXT records found at ${name}: ${shown}${more}; none matches the token.`,
  };
}

type FileAnswer = { status: number; location: string | undefined; body: Buffer };

/** One GET, connected to `address` only, reading at most FILE_MAX_BYTES of the answer. */
async function get(url: URL, address: string, signal: AbortSignal): Promise<FileAnswer> {
  const family = ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4;
  const answer = await pinnedRequest(
    url,
    { address, family },
    {
      method: 'GET',
      headers: { 'user-agent': USER_AGENT, accept: 'text/plain, */*;q=0.1' },
      maxBytes: FILE_MAX_BYTES,
      signal,
    },
  );
  const { location } = answer.headers;
  return {
    status: answer.status,
    location: typeof location === 'string' ? location : undefined,
    body: answer.body,
  };
}

const TLS_CODES = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_CERT)/;

/** A failed connection in words. */
function connectionFailure(url: URL, error: unknown): string {
  if (error instanceof Timeout)
    return `File: ${url.href} did not answer within ${PROOF_TIMEOUT_MS / 1000} seconds.`;
  const code = errorCodeOf(error);
  if (code && TLS_CODES.test(code))
    return `File: the HTTPS connection to ${url.host} failed: its certificate is not valid (${code}).`;
  if (code === 'ECONNREFUSED') return `File: ${url.host} refused the connection.`;
  if (code === 'ECONNRESET') return `File: ${url.host} closed the connection.`;
  return `File: ${url.href} could not be fetched (${code ?? 'connection failed'}).`;
}

/**
 * The file `https://<domain>/.well-known/veriform-domain-verification.txt`: it must answer 200 with the token as one
 * of its lines (a file may hold several accounts' tokens).
 */
export async function checkProofFile(
  domain: string,
  token: string,
  options: { allowHttp: boolean; resolveHost: HostResolver },
): Promise<ProofFinding> {
  const first = new URL(fileUrlOf(domain));
  const controller = new AbortController();
  let url = first;
  try {
    return await within(
      (async (): Promise<ProofFinding> => {
        for (let hop = 0; ; hop++) {
          const target = await resolveWebhookTarget(
            url.href,
            { requireHttps: !options.allowHttp, allowPrivate: options.allowHttp },
            options.resolveHost,
          );
          if (!target.ok) {
            if (target.reason === 'private_address')
              return {
                ok: false,
                message: `File: ${url.hostname} resolves to a private or local address, which is not fetched.`,
              };
            if (target.reason === 'unresolvable')
              return { ok: false, message: `File: ${url.hostname} has no address (no A or AAAA record).` };
            return { ok: false, message: `File: ${url.href} cannot be fetched.` };
          }
          const [address] = target.addresses;
          if (!address) return { ok: false, message: `File: ${url.hostname} has no address.` };
          const answer = await get(url, address, controller.signal);
          if (answer.status >= 300 && answer.status < 400 && answer.location !== undefined) {
            const next = URL.canParse(answer.location, url.href) ? new URL(answer.location, url) : undefined;
            if (!next || next.host !== first.host || next.protocol !== first.protocol)
              return {
                ok: false,
                message: `File: ${url.href} redirects to ${next ? `${next.protocol}//${next.host}` : 'an invalid address'}; the file must be served by ${first.host} itself.`,
              };
            if (hop >= MAX_REDIRECTS)
              return {
                ok: false,
                message: `File: ${first.href} redirects more than ${MAX_REDIRECTS} times.`,
              };
            url = next;
            continue;
          }
          if (answer.status !== 200)
            return { ok: false, message: `File: ${url.href} answered ${answer.status}.` };
          const text = answer.body.toString('utf8');
          if (text.split(/\r?\n/).some((line) => line.trim() === token)) return { ok: true };
          if (text.trim() === '') return { ok: false, message: `File: ${url.href} is empty.` };
          return { ok: false, message: `File: ${url.href} holds ${quoted(text)}, not the token.` };
        }
      })(),
      PROOF_TIMEOUT_MS,
    );
  } catch (error) {
    return { ok: false, message: connectionFailure(url, error) };
  } finally {
    controller.abort();
  }
}

/** Both proofs at once; the TXT record wins when both hold. `findings` says what each found when it did not. */
export async function checkDomainProof(
  domain: string,
  token: string,
  deps: { lookupTxt: TxtLookup; resolveHost: HostResolver; allowHttp: boolean },
): Promise<ProofResult> {
  const [txt, file] = await Promise.all([
    checkTxtRecord(deps.lookupTxt, domain, token),
    checkProofFile(domain, token, { allowHttp: deps.allowHttp, resolveHost: deps.resolveHost }),
  ]);
  const findings = [txt, file].flatMap((finding) => (finding.ok ? [] : [finding.message]));
  if (txt.ok) return { verified: true, by: 'dns', findings };
  if (file.ok) return { verified: true, by: 'file', findings };
  return { verified: false, findings };
}
