import { lookup } from 'node:dns/promises';
import { webhookTexts } from '@veriform/contracts';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may go (issue #17 item 4, ADR 20). A webhook makes our server send a request to an address a
 * customer typed: without these checks it would reach what only our network reaches (the database, the cloud's
 * metadata service at 169.254.169.254 with its credentials, an admin port on loopback). The URL is checked when it is
 * saved, so the owner hears about it at once, and again at every send, with the addresses resolved then: a name can
 * point elsewhere by the time we send (DNS rebinding), so the sender connects to the addresses this check returned,
 * never to a second lookup of the name.
 */

/** Every address a host name resolves to (IPv4 and IPv6), as text. Injected in tests. */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** Resolution by the operating system (node:dns `lookup`, as `http.request` would), every address. */
export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export type WebhookUrlPolicy = {
  /** Production: only `https:`. */
  requireHttps: boolean;
  /**
   * WEBHOOKS_ALLOW_PRIVATE_URLS (tests and local development; refused in production): loopback opens (127.0.0.0/8,
   * ::1, `localhost`), so a receiver on the developer's own machine can be reached. Nothing else does: link-local
   * (the metadata service at 169.254.169.254), private, carrier-grade NAT and unspecified addresses, in any form, and
   * names that resolve to them stay refused (issue #33 item 11).
   */
  allowPrivate: boolean;
};

/** The policy the configuration sets: https only in production; WEBHOOKS_ALLOW_PRIVATE_URLS opens loopback. */
export function webhookUrlPolicy(config: {
  isProduction: boolean;
  webhooksAllowPrivateUrls: boolean;
}): WebhookUrlPolicy {
  return { requireHttps: config.isProduction, allowPrivate: config.webhooksAllowPrivateUrls };
}

export type WebhookUrlRefusal = 'bad_url' | 'https_only' | 'credentials' | 'private_address' | 'unresolvable';

export type WebhookUrlVerdict =
  | { ok: true; url: URL; hostname: string }
  | { ok: false; reason: WebhookUrlRefusal; message: string };

export type WebhookTarget =
  | {
      ok: true;
      url: URL;
      /** The addresses to connect to (all checked); the sender must not resolve the name again. */
      addresses: string[];
    }
  | { ok: false; reason: WebhookUrlRefusal; message: string };

const refusalTexts: Record<WebhookUrlRefusal, string> = {
  bad_url: webhookTexts.badUrl,
  https_only: webhookTexts.httpsOnly,
  credentials: webhookTexts.credentialsInUrl,
  private_address: webhookTexts.privateAddress,
  unresolvable: webhookTexts.unresolvable,
};

const refuse = (reason: WebhookUrlRefusal) => ({ ok: false, reason, message: refusalTexts[reason] }) as const;

/**
 * Names that lead to internal services whatever they resolve to where we run: the cloud metadata services (Google's
 * `metadata.google.internal`, `metadata.goog`, AWS's `instance-data`), loopback names, and the suffixes reserved for
 * private networks (`.internal`, mDNS `.local`).
 */
const BLOCKED_NAMES = new Set(['localhost', 'metadata', 'metadata.goog', 'instance-data']);
const BLOCKED_SUFFIXES = ['.localhost', '.internal', '.local', '.metadata.goog'];

/** The names of loopback (RFC 6761), opened with private URLs allowed; still resolved and checked. */
const LOOPBACK_NAMES = new Set(['localhost']);
const LOOPBACK_SUFFIXES = ['.localhost'];

function isBlockedName(hostname: string, allowPrivate: boolean): boolean {
  if (allowPrivate && (LOOPBACK_NAMES.has(hostname) || LOOPBACK_SUFFIXES.some((s) => hostname.endsWith(s))))
    return false;
  return BLOCKED_NAMES.has(hostname) || BLOCKED_SUFFIXES.some((suffix) => hostname.endsWith(suffix));
}

/** Global unicast IPv6 is 2000::/3; everything below it (::/8 with loopback, IPv4-compatible, NAT64…) is not. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Whether an address is public: ipaddr.js says `unicast` (not loopback, private RFC 1918, link-local 169.254/16
 * (the metadata services), carrier-grade NAT 100.64/10, unspecified, broadcast, multicast, reserved or documentation
 * ranges; for IPv6 not fc00::/7, fe80::/10, NAT64, 6to4, Teredo…), an IPv4-mapped IPv6 address judged as the IPv4
 * address it carries. Anything unparseable is not public.
 */
export function isPublicAddress(text: string): boolean {
  if (!ipaddr.isValid(text)) return false;
  const address = ipaddr.process(text);
  if (address.range() !== 'unicast') return false;
  return address.kind() === 'ipv4' || address.match(GLOBAL_UNICAST_V6);
}

/** Loopback: 127.0.0.0/8, ::1, and the IPv4-mapped IPv6 form of 127.0.0.0/8. */
function isLoopbackAddress(text: string): boolean {
  return ipaddr.isValid(text) && ipaddr.process(text).range() === 'loopback';
}

/**
 * Whether a webhook may connect to an address: a public one, or, with private URLs allowed (tests, development),
 * loopback. The one rule for save time and send time (lib/webhook-delivery.ts).
 */
export function isAllowedAddress(text: string, allowPrivate: boolean): boolean {
  return isPublicAddress(text) || (allowPrivate && isLoopbackAddress(text));
}

/** The host as an address or a lower-case name: IPv6 literals lose their brackets, names their trailing dot. */
function hostOf(url: URL): string {
  const host = url.hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) return host.slice(1, -1);
  return host.replace(/\.+$/, '');
}

/**
 * The checks that need no network: the scheme (https only in production), no user name or password, a host, not a
 * blocked name nor a literal address that may not be reached (`isAllowedAddress`).
 */
export function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy): WebhookUrlVerdict {
  if (!URL.canParse(raw)) return refuse('bad_url');
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('bad_url');
  if (policy.requireHttps && url.protocol !== 'https:') return refuse('https_only');
  if (url.username !== '' || url.password !== '') return refuse('credentials');
  const hostname = hostOf(url);
  if (hostname === '') return refuse('bad_url');
  if (
    ipaddr.isValid(hostname)
      ? !isAllowedAddress(hostname, policy.allowPrivate)
      : isBlockedName(hostname, policy.allowPrivate)
  )
    return refuse('private_address');
  return { ok: true, url, hostname };
}

/** A lookup that hangs must not hold a save or a delivery for long. */
const RESOLVE_TIMEOUT_MS = 5_000;

async function resolveWithin(resolver: HostResolver, hostname: string): Promise<string[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), RESOLVE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([resolver(hostname).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `checkWebhookUrl`, then the host resolved: refused when it does not resolve, or when ANY of its addresses may not be
 * reached (a name with one public and one private address could be steered to the private one). A literal address is
 * not looked up. The answer's `addresses` are what the sender connects to.
 */
export async function resolveWebhookTarget(
  raw: string,
  policy: WebhookUrlPolicy,
  resolver: HostResolver = systemResolver,
): Promise<WebhookTarget> {
  const verdict = checkWebhookUrl(raw, policy);
  if (!verdict.ok) return verdict;
  const { url, hostname } = verdict;
  const addresses = ipaddr.isValid(hostname) ? [hostname] : await resolveWithin(resolver, hostname);
  if (!addresses || addresses.length === 0) return refuse('unresolvable');
  if (!addresses.every((address) => isAllowedAddress(address, policy.allowPrivate)))
    return refuse('private_address');
  return { ok: true, url, addresses };
}
