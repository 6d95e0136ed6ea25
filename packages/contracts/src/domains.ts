import { z } from 'zod';
import { anyIdParams, created, endpoint, noContent, ok } from './endpoints.ts';

/**
 * Company domains (issue #33 item 10, docs/decisions/0031-company-domain-proof.md): an owner proves that the company
 * controls a domain — a DNS TXT record or a file under `/.well-known/` — and certificates and the public pages then
 * name the verified domain beside the company's name, which any account may otherwise choose freely.
 *
 * Routes: `domainEndpoints` below (owners change, any member reads).
 */

/** Domains one account may hold (verified or not). */
export const MAX_ACCOUNT_DOMAINS = 20;
/** Checks of one domain per account and hour: each makes a DNS lookup and an HTTPS request to the owner's host. */
export const DOMAIN_CHECKS_PER_HOUR = 20;
/** The TXT record's name is this label before the domain: `_veriform.example.com`. */
export const DOMAIN_TXT_LABEL = '_veriform';
/** Where the file proof is fetched: `https://<domain>/.well-known/veriform-domain-verification.txt`. */
export const DOMAIN_PROOF_FILE_PATH = '/.well-known/veriform-domain-verification.txt';
/** Every token starts so, then 32 base62 characters: the TXT record's value and the file's content. */
export const DOMAIN_TOKEN_PREFIX = 'veriform-domain-verification=';
/** The longest host name DNS allows (RFC 1035), in its ASCII form. */
export const DOMAIN_MAX_LENGTH = 253;

export const domainTexts = {
  required: 'Enter the domain, such as example.com.',
  scheme: 'Enter the domain alone, without http:// or https://.',
  path: 'Enter the domain alone, without a path, query or fragment.',
  port: 'Enter the domain without a port.',
  ipAddress: 'Enter a domain name, not an IP address.',
  invalid:
    'Enter a domain name such as example.com: letters, digits and hyphens, with dots between the labels.',
  oneLabel: 'Enter a full domain name with its ending, such as example.com.',
  tooLong: `A domain name has at most ${DOMAIN_MAX_LENGTH} characters.`,
  duplicate: 'This domain is already on the list.',
  tooMany: `An account can have at most ${MAX_ACCOUNT_DOMAINS} domains. Remove one you no longer use first.`,
  tooManyChecks: (seconds: number) =>
    `This domain was checked too often. Try again in ${Math.ceil(seconds / 60)} minutes.`,
} as const;

export type DomainInput = { ok: true; domain: string } | { ok: false; message: string };

/** A label of a host name (RFC 1123): letters, digits and inner hyphens, 1–63 characters. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** The last label: letters, or an internationalised ending in its ASCII form (`xn--p1ai`). */
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
/** Tests and development only (DOMAIN_PROOF_ALLOW_HTTP): a server on this machine, with its port. */
const LOOPBACK_WITH_PORT = /^(?:localhost|127\.0\.0\.1):(\d{1,5})$/;

/**
 * What an owner typed, as the domain that is stored and shown: trimmed, lower-case, without a trailing dot, in its
 * ASCII form (IDNA: `bücher.example` → `xn--bcher-kva.example`, so look-alike letters cannot pass for another name),
 * and refused with a reason when it is not a host name — a scheme, path, port, user, IP address or single label. The
 * browser's and Node's own URL parser does the IDNA mapping, so the page and the server agree. `allowLoopback`
 * (DOMAIN_PROOF_ALLOW_HTTP) also accepts `localhost:<port>` and `127.0.0.1:<port>`.
 */
export function normalizeDomain(raw: string, options: { allowLoopback: boolean }): DomainInput {
  const refuse = (message: string): DomainInput => ({ ok: false, message });
  const typed = raw.trim().toLowerCase().replace(/\.$/, '');
  if (typed === '') return refuse(domainTexts.required);
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(typed)) return refuse(domainTexts.scheme);
  if (/[/?#\\]/.test(typed)) return refuse(domainTexts.path);
  if (/[@\s]/.test(typed)) return refuse(domainTexts.invalid);
  const loopback = LOOPBACK_WITH_PORT.exec(typed);
  if (loopback) {
    const port = Number(loopback[1]);
    if (options.allowLoopback && port >= 1 && port <= 65535) return { ok: true, domain: typed };
    return refuse(domainTexts.port);
  }
  if (typed.startsWith('[') || (typed.match(/:/g)?.length ?? 0) > 1) return refuse(domainTexts.ipAddress);
  if (typed.includes(':')) return refuse(domainTexts.port);
  let host: string;
  try {
    host = new URL(`http://${typed}`).hostname;
  } catch {
    return refuse(domainTexts.invalid);
  }
  // The URL parser reads `127.1`, `0x7f.0.0.1` and `2130706433` as the address they spell.
  if (/^[\d.]+$/.test(host) || /^\[/.test(host)) return refuse(domainTexts.ipAddress);
  if (host.length > DOMAIN_MAX_LENGTH) return refuse(domainTexts.tooLong);
  const labels = host.split('.');
  if (!labels.every((label) => LABEL.test(label))) return refuse(domainTexts.invalid);
  if (labels.length < 2) return refuse(domainTexts.oneLabel);
  if (!TOP_LABEL.test(labels.at(-1) ?? '')) return refuse(domainTexts.invalid);
  return { ok: true, domain: host };
}

/** POST /api/accounts/{id}/domains: the server normalises and judges the domain (normalizeDomain). */
export const createAccountDomainRequestSchema = z.object({ domain: z.string().max(1000) });
export type CreateAccountDomainRequest = z.infer<typeof createAccountDomainRequestSchema>;

/**
 * The add-domain form's own check, before it asks the server: the same rules, loopback hosts let through (the server
 * knows whether DOMAIN_PROOF_ALLOW_HTTP is on, and refuses them otherwise).
 */
export const accountDomainFormSchema = z.object({
  domain: z.string().superRefine((value, ctx) => {
    const verdict = normalizeDomain(value, { allowLoopback: true });
    if (!verdict.ok) ctx.addIssue({ code: 'custom', message: verdict.message });
  }),
});

export const domainProofMethods = ['dns', 'file'] as const;
export const domainProofMethodSchema = z.enum(domainProofMethods);
export type DomainProofMethod = z.infer<typeof domainProofMethodSchema>;

export const accountDomainSchema = z.object({
  id: z.number().int(),
  /** Lower-case, ASCII (IDNA) form. */
  domain: z.string(),
  /** `veriform-domain-verification=` and 32 base62 characters: what the record or the file must hold. */
  token: z.string(),
  /** Either proof suffices: this TXT record… */
  dnsRecord: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
  /** …or this file, answering 200 with the token (one line) as its content. */
  fileUrl: z.string(),
  created: z.string(),
  /** When it was proven; null until then. A verified domain stays verified until it is removed. */
  verifiedAt: z.string().nullable(),
  verifiedBy: domainProofMethodSchema.nullable(),
  lastCheckedAt: z.string().nullable(),
  /** What the last check found, in words (the failed check's 400 said the same). */
  lastCheckResult: z.string().nullable(),
});
export type AccountDomain = z.infer<typeof accountDomainSchema>;

export const accountDomainListSchema = z.object({ results: z.array(accountDomainSchema) });
export type AccountDomainList = z.infer<typeof accountDomainListSchema>;

/**
 * Any strings: the tenancy hook answers 404 for an account not the caller's, the service for a domain not the
 * account's.
 */
export const accountDomainParams = z.object({ id: z.string(), domainId: z.string() });

/** POST /api/accounts/{id}/domains/{domainId}/check: the SPA sends `{}`; the server reads no body, so any is taken. */
export const checkAccountDomainRequestSchema = z.unknown();

/** The account in the path: owners (`manageCompany`). */
const domainOwners = { account: { from: 'path.account', can: 'manageCompany' } } as const;

/** The session API's company-domain routes. */
export const domainEndpoints = {
  /** Any member: Company Info shows the verified ones. */
  list: endpoint('GET /api/accounts/:id/domains', {
    params: anyIdParams,
    response: ok(accountDomainListSchema),
    access: { account: { from: 'path.account' } },
  }),
  /** `{domain}` → 201 with its proof to publish; 400 on `domain` when it is no domain or already listed. */
  create: endpoint('POST /api/accounts/:id/domains', {
    params: anyIdParams,
    body: createAccountDomainRequestSchema,
    response: created(accountDomainSchema),
    access: domainOwners,
  }),
  /** Looks for the proof now → the domain, verified; 400 saying what was found; 429 past DOMAIN_CHECKS_PER_HOUR. */
  check: endpoint('POST /api/accounts/:id/domains/:domainId/check', {
    params: accountDomainParams,
    body: checkAccountDomainRequestSchema,
    response: ok(accountDomainSchema),
    access: domainOwners,
  }),
  /** Removes it, verified or not. */
  remove: endpoint('DELETE /api/accounts/:id/domains/:domainId', {
    params: accountDomainParams,
    response: noContent,
    access: domainOwners,
  }),
};

/**
 * How a company is named beside its verified domains, the same words wherever it is shown (the certificate's page and
 * PDF): "Acme Inc. — verified domain acme.com" or "Acme Inc. — name not verified".
 */
export function issuerLabel(name: string, verifiedDomains: readonly string[]): string {
  if (verifiedDomains.length === 0) return `${name} — name not verified`;
  const noun = verifiedDomains.length === 1 ? 'verified domain' : 'verified domains';
  return `${name} — ${noun} ${verifiedDomains.join(', ')}`;
}
