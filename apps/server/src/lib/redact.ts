import { redactTokenLinks } from '@veriform/contracts';
import { type SerializedError, stdSerializers } from 'pino';

/**
 * What the log may keep of a request (issue #13 item 9): no personal data (phone numbers, e-mail addresses, customers'
 * references, search words) and no secrets (token links, invitation keys).
 */

/**
 * The query parameters whose values the log keeps: the app's own filters, paging and sort (ids, enums, dates, page
 * numbers, time zones, the account's form categories). Every other value is replaced, so the rule fails closed:
 * `q` (phone numbers, references, names), `ref` and `externalRefId` (a customer's private reference), `to`,
 * `email` and `toEmail` (addresses), `key` and `token` (secrets), and any parameter added later until it is listed
 * here on purpose.
 */
const LOGGED_PARAMS: ReadonlySet<string> = new Set([
  'account',
  'accountId',
  'o',
  'pageNumber',
  'pageSize',
  'status',
  'isLive',
  'language',
  'tz',
  'created__date__preset',
  'created__date__gte',
  'created__date__lte',
  'verifyFormId__in',
  'verifyFormCategory__in',
  'verificationMethod__in',
  'category__in',
]);

const REDACTED = '[redacted]';
/** A parameter name worth keeping for debugging; anything else (`?+14155550142`, `?ann@example.com`) may be data. */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_.[\]-]{0,63}$/;
/** The public verification page (`/f/{publicId}?ref=…&…`): its whole query is the customer's, so none of it is kept. */
const PUBLIC_PAGE = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/]*)?\/f\//i;

function decodedName(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

function redactPair(pair: string): string {
  const eq = pair.indexOf('=');
  const rawName = eq === -1 ? pair : pair.slice(0, eq);
  const name = decodedName(rawName);
  if (name !== undefined && LOGGED_PARAMS.has(name)) return pair;
  return `${name !== undefined && PLAIN_NAME.test(name) ? rawName : REDACTED}=${REDACTED}`;
}

/**
 * What the request log keeps of a URL: token links (contracts' tokenLinkPages, `…/{uidb64}/{token}/`) lose the token,
 * `/f/…` pages their whole query, and other queries every value that is not in LOGGED_PARAMS (however its name is
 * encoded).
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const path = redactTokenLinks(at === -1 ? url : url.slice(0, at));
  if (at === -1) return path;
  if (PUBLIC_PAGE.test(path)) return `${path}?${REDACTED}`;
  const query = url.slice(at + 1);
  if (query === '') return `${path}?`;
  return `${path}?${query.split('&').map(redactPair).join('&')}`;
}

/**
 * An error as the log keeps it: pino's own serialization (type, message and stack with their causes, own fields),
 * less the values of a failed query. Drizzle puts the statement's parameters (phone numbers, addresses, search words)
 * in its message (so in the stack) and in `params`; the statement stays, the values go. PostgreSQL's `detail`
 * (`Key (email)=(ann@example.com) already exists.`) loses the values it quotes.
 */
export function serializeLoggedError(error: Error): SerializedError {
  const serialized = stdSerializers.err(error);
  // pino hands on what is not an error as it is.
  if (!(error instanceof Error)) return serialized;
  if ('params' in error) {
    const at = error.message.indexOf('\nparams: ');
    if (at !== -1) {
      const kept = `${error.message.slice(0, at)}\nparams: ${REDACTED}`;
      serialized.message = serialized.message.replace(error.message, () => kept);
      if (typeof serialized.stack === 'string')
        serialized.stack = serialized.stack.replace(error.message, () => kept);
    }
    serialized.params = REDACTED;
  }
  if (typeof serialized.detail === 'string') {
    serialized.detail = serialized.detail.replace(/=\(.*\)/s, `=(${REDACTED})`);
  }
  return serialized;
}
