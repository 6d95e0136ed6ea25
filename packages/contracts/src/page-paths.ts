/**
 * The pages the server links to from e-mails and recognises when it serves them (their initial data, the
 * Referrer-Policy of pages whose URL holds a secret, the redaction of logged and reported URLs). The server builds and
 * matches these paths, the web app routes them: one definition, so the three cannot drift apart. Zod-free (the
 * browser's error-reporting chunk imports it).
 */

/**
 * Pages whose path carries a user id and a signed token, `{prefix}{uidb64}/{token}/`, keyed by the token's purpose
 * (the server's signed links sign that name). `change-email-cancel` is the link to the OLD address.
 */
export const tokenLinkPages = {
  'verify-email': '/auth/verify-email/confirm/',
  'reset-password': '/auth/reset-password/confirm/',
  'change-email': '/auth/change-email/confirm/',
  'change-email-cancel': '/auth/change-email/cancel/',
} as const;

export type TokenLinkKind = keyof typeof tokenLinkPages;

export const tokenLinkKinds = Object.keys(tokenLinkPages) as TokenLinkKind[];

export function tokenLinkPath(kind: TokenLinkKind, uidb64: string, token: string): string {
  return `${tokenLinkPages[kind]}${uidb64}/${token}/`;
}

/** The id and token of a `kind` link's path (its trailing slash optional), or null when it is not one. */
export function parseTokenLinkPath(
  kind: TokenLinkKind,
  path: string,
): { uidb64: string; token: string } | null {
  const prefix = tokenLinkPages[kind];
  if (!path.startsWith(prefix)) return null;
  const match = /^([^/]+)\/([^/]+)\/?$/.exec(path.slice(prefix.length));
  return match?.[1] && match[2] ? { uidb64: match[1], token: match[2] } : null;
}

/** The invitation's pages; each takes the invitation key as `?key=` (the app's links end in a slash or not). */
export const invitationPages = {
  follow: '/follow-invitation/',
  signup: '/auth/signup/from-invitation',
  login: '/auth/login/from-invitation',
} as const;

/** The link of the invitation e-mail, before PUBLIC_URL. */
export function invitationLinkPath(key: string): string {
  return `${invitationPages.follow}?key=${encodeURIComponent(key)}`;
}

const withoutTrailingSlash = (path: string) => (path.endsWith('/') ? path.slice(0, -1) : path);

/** One of the invitation's pages (a path without its query; trailing slash optional). */
export function isInvitationPage(path: string): boolean {
  const bare = withoutTrailingSlash(path);
  return Object.values(invitationPages).some((page) => withoutTrailingSlash(page) === bare);
}

/** A page whose URL holds a secret (a token link's path, an invitation's query): it must not leak in a Referer. */
export function isSecretPage(path: string): boolean {
  return tokenLinkKinds.some((kind) => path.startsWith(tokenLinkPages[kind])) || isInvitationPage(path);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Any token link's prefix and id anywhere in a URL, then its token. Case-insensitive and unanchored, so a URL with an
 * origin, or a path the router would still match with other letter case, loses its token too (fails closed).
 */
const TOKEN_IN_URL = new RegExp(
  `((?:${tokenLinkKinds.map((kind) => escapeRegExp(tokenLinkPages[kind])).join('|')})[^/?#]+/)[^/?#]+`,
  'gi',
);

/** A URL without the secrets of token links in its path (`…/confirm/{uidb64}/{token}/` → `…/{uidb64}/[redacted]/`). */
export function redactTokenLinks(url: string): string {
  return url.replace(TOKEN_IN_URL, '$1[redacted]');
}
