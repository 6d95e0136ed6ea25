import { createHmac, randomBytes } from 'node:crypto';

/** The three headers of the Standard Webhooks specification, as sent with every delivery. */
export type WebhookSignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

const SECRET_PREFIX = 'whsec_';

/** A signing secret as Standard Webhooks libraries expect it: `whsec_` and 192 random bits in base64. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  // An empty key would sign with nothing a receiver could check against; refuse it rather than send it.
  if (key.length === 0) throw new Error('A webhook secret must not be empty.');
  return key;
}

/**
 * Signs one delivery. The signed content is only `{id}.{timestamp}.{body}`, never the URL, so a proxy or load
 * balancer that rewrites the address on the way cannot break verification. During a secret rotation every secret
 * still valid signs, space-separated, and a receiver accepts the delivery if any of them matches its secret.
 */
export function signDelivery(input: {
  id: string;
  timestamp: Date;
  body: string;
  secrets: readonly string[];
}): WebhookSignatureHeaders {
  if (input.secrets.length === 0) throw new Error('A delivery needs at least one secret to sign with.');
  const timestamp = String(Math.floor(input.timestamp.getTime() / 1000));
  const content = `${input.id}.${timestamp}.${input.body}`;
  const signatures = input.secrets.map(
    (secret) => `v1,${createHmac('sha256', secretKey(secret)).update(content).digest('base64')}`,
  );
  return {
    'webhook-id': input.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signatures.join(' '),
  };
}
