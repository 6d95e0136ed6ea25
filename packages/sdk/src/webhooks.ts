import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Event } from './types.ts';

/**
 * Checks a webhook delivery as the server signs it (apps/server/src/lib/webhook-signing.ts; Standard Webhooks):
 * `webhook-signature` holds one or more `v1,<base64 HMAC-SHA256>` (space-separated, one per secret signing during a
 * rotation) of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed by the base64 after the secret's `whsec_`.
 */

/** A delivery's body, `{type, timestamp, data}`, with its `webhook-id` as `id` (the event's id, `evt_…`). */
export type WebhookEvent = Pick<Event, 'id' | 'type' | 'data'> & {
  /** When the event happened (ISO 8601). */
  timestamp: string;
};

/** Node's `request.headers`, a fetch `Headers`, or a plain object. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export type VerifyWebhookOptions = {
  /** The raw body exactly as received: JSON parsed and serialized again may differ and fail the check. */
  payload: string | Uint8Array;
  headers: WebhookHeaders;
  /** The endpoint's signing secret (`whsec_…`, Settings → Webhooks); several while you switch to a rotated one. */
  secret: string | readonly string[];
  /** How far `webhook-timestamp` may be from now; 300 s (5 minutes) by default, as Standard Webhooks. */
  toleranceSeconds?: number;
  /** Now, for the tolerance; the system clock by default. */
  now?: Date;
};

export type WebhookFailure =
  | 'missing_headers'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'bad_signature'
  | 'bad_payload';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly reason: WebhookFailure;

  constructor(reason: WebhookFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = 'whsec_';

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

function keyOf(secret: string): Buffer {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  if (key.length === 0) throw new TypeError('verifyWebhook: a secret must not be empty');
  return key;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The delivery's event when its signature and timestamp check out; else throws WebhookVerificationError. */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  if (secrets.length === 0) throw new TypeError('verifyWebhook: give at least one secret');
  const keys = secrets.map(keyOf);

  const id = headerOf(options.headers, 'webhook-id');
  const timestamp = headerOf(options.headers, 'webhook-timestamp');
  const signature = headerOf(options.headers, 'webhook-signature');
  if (!id || !timestamp || !signature)
    throw new WebhookVerificationError(
      'missing_headers',
      'webhook-id, webhook-timestamp and webhook-signature are required',
    );

  const sentAt = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (Number.isNaN(sentAt) || sentAt < now - tolerance)
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `webhook-timestamp is more than ${tolerance} s old`,
    );
  if (sentAt > now + tolerance)
    throw new WebhookVerificationError(
      'timestamp_too_new',
      `webhook-timestamp is more than ${tolerance} s in the future`,
    );

  const payload =
    typeof options.payload === 'string' ? Buffer.from(options.payload, 'utf8') : Buffer.from(options.payload);
  const given = signature
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => Buffer.from(part.slice(3), 'base64'));
  const matches = keys.some((key) => {
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(payload).digest();
    return given.some(
      (candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected),
    );
  });
  if (!matches)
    throw new WebhookVerificationError('bad_signature', 'no signature matches the body under the secret');

  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('bad_payload', 'the body is not JSON');
  }
  if (
    !isRecord(body) ||
    typeof body.type !== 'string' ||
    typeof body.timestamp !== 'string' ||
    !isRecord(body.data)
  )
    throw new WebhookVerificationError('bad_payload', 'the body is not {type, timestamp, data}');
  return { id, type: body.type, timestamp: body.timestamp, data: body.data };
}
