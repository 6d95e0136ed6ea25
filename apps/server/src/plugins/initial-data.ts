import {
  type AuthResponse,
  CLIENT_CONFIG_ELEMENT_ID,
  type ClientConfig,
  INITIAL_DATA_ELEMENT_ID,
  type InitialData,
  type InitialExtra,
  isInvitationPage,
  isSecretPage,
  type PUBLIC_PAGE_DATA_ELEMENT_ID,
  type PublicPageData,
  parseTokenLinkPath,
} from '@veriform/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ensureCsrfToken } from './csrf.ts';
import { originOf } from './tenancy.ts';

/**
 * The initial page data (SPEC §3, DESIGN §4) embedded in every page: who is asking, a CSRF token, and `extra`
 * computed from the path (token links are checked here, never consumed: that happens on the page's POST).
 */

/**
 * Who is asking, as the auth module answers it (modules/auth/viewer.ts): app.ts passes it to registerSpa, so this
 * plugin names no module (ADR 0036).
 */
export type ViewerState = (
  request: FastifyRequest,
  reply: FastifyReply,
  options: { loadedMemberships: true },
) => Promise<AuthResponse>;

/** Pages whose URL holds a secret (contracts' page paths): they must not leak it to other sites through the Referer. */
export const isTokenPage = isSecretPage;

/** The first `name` of the query string, or undefined when absent or empty. */
function queryParam(url: string, name: string): string | undefined {
  const at = url.indexOf('?');
  if (at === -1) return undefined;
  return new URLSearchParams(url.slice(at + 1)).get(name) || undefined;
}

async function extraFor(request: FastifyRequest, path: string): Promise<InitialExtra> {
  const { emailVerification, passwordReset, emailChange, invitations } = request.server.services;
  const extra: InitialExtra = { signaling: { immediatelyRedirectTo: null } };
  const verify = parseTokenLinkPath('verify-email', path);
  if (verify)
    extra.verifyEmailConfirm = { isValid: await emailVerification.isValid(verify.uidb64, verify.token) };
  const reset = parseTokenLinkPath('reset-password', path);
  if (reset) extra.resetPasswordConfirm = { isValid: await passwordReset.isValid(reset.uidb64, reset.token) };
  const change = parseTokenLinkPath('change-email', path);
  if (change) extra.changeEmailConfirm = { isValid: await emailChange.isValid(change.uidb64, change.token) };
  const cancel = parseTokenLinkPath('change-email-cancel', path);
  if (cancel)
    extra.changeEmailCancel = { isValid: await emailChange.isCancelValid(cancel.uidb64, cancel.token) };
  if (isInvitationPage(path))
    Object.assign(extra, await invitations.pageExtra(queryParam(request.url, 'key')));
  return extra;
}

export async function initialDataFor(
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
  viewerState: ViewerState,
): Promise<InitialData> {
  const [viewer, extra] = await Promise.all([
    viewerState(request, reply, { loadedMemberships: true }),
    extraFor(request, path),
  ]);
  return { ...viewer, extra };
}

/**
 * The data of the public verification page `/f/{publicId}?ref=…` (contracts PublicPageData): a CSRF token for its
 * POSTs, the form (null when it is unknown or inactive: the page then says "not available"; a member of the form's
 * account gets an inactive form as a preview), the link's `ref`, which the page passes on as externalRefId, and the
 * form's language, which its "not available" page speaks too. Opening a live form records a page view (issue #18).
 */
export async function publicPageDataFor(
  request: FastifyRequest,
  reply: FastifyReply,
  publicId: string,
): Promise<PublicPageData> {
  // Who asks, kept as evidence of a page view: the address as TRUST_PROXY reads it and the agent cut to a sane length.
  const { form, language } = await request.server.services.publicVerify.publicPage(
    publicId,
    request.user?.id ?? null,
    { ip: request.ip, userAgent: originOf(request).userAgent },
  );
  const ref = queryParam(request.url, 'ref')?.trim();
  return { csrfToken: ensureCsrfToken(request, reply), form, externalRefId: ref || null, language };
}

/**
 * The data of the public revocation page `/f/{publicId}/revoke` (issue #35): the hosted page's shape (PublicPageData,
 * read by the same small client), a CSRF token for its POST, the live form's face (null, with the form's language
 * when inactive, for the "not available" page), no `ref`, and no page view recorded.
 */
export async function publicRevokePageDataFor(
  request: FastifyRequest,
  reply: FastifyReply,
  publicId: string,
): Promise<PublicPageData> {
  const { form, language } = await request.server.services.publicVerify.revokePage(publicId);
  return { csrfToken: ensureCsrfToken(request, reply), form, externalRefId: null, language };
}

/**
 * JSON that is safe inside a <script> element: `<` is escaped so `</script>` or `<!--` in any value cannot end or
 * alter the element, and U+2028/U+2029 so the text is also valid JavaScript should anyone eval it.
 */
export function serializeForScript(data: unknown): string {
  return JSON.stringify(data)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/**
 * Both pages read their data from the same element id (the app's InitialData, the public page's PublicPageData); the
 * intersection type stops compiling should the two constants ever differ.
 */
const ELEMENT_ID: typeof INITIAL_DATA_ELEMENT_ID & typeof PUBLIC_PAGE_DATA_ELEMENT_ID =
  INITIAL_DATA_ELEMENT_ID;

/** A JSON data element at the end of the page's head (data, never executed: the CSP allows no inline script). */
function injectJson(html: string, elementId: string, data: unknown): string {
  const tag = `<script id="${elementId}" type="application/json">${serializeForScript(data)}</script>`;
  const at = html.search(/<\/head>/i);
  return at === -1 ? `${tag}${html}` : `${html.slice(0, at)}${tag}${html.slice(at)}`;
}

export function injectInitialData(html: string, data: InitialData | PublicPageData): string {
  return injectJson(html, ELEMENT_ID, data);
}

/** The deployment's settings a page needs (today: where to report its errors); the same for every page and user. */
export function injectClientConfig(html: string, clientConfig: ClientConfig): string {
  return injectJson(html, CLIENT_CONFIG_ELEMENT_ID, clientConfig);
}
