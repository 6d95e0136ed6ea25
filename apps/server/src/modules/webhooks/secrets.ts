import { randomBytes } from 'node:crypto';
import type { Sealer } from '../../lib/sealed.ts';

/**
 * Endpoint signing secrets in the Standard Webhooks format: `whsec_` and the base64 of 24 random bytes (192 bits;
 * the receiver's library signs with the decoded bytes). They rest sealed with SECRET_KEY (ADR 20): the sender needs
 * the secret itself, so a hash would not do.
 */

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 24;

export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** `whsec_` and the first 4 characters of the random part, then `…`: tells secrets apart, never enough to sign. */
export function webhookSecretPreview(secret: string): string {
  return `${secret.slice(0, WEBHOOK_SECRET_PREFIX.length + 4)}…`;
}

/** The sealing context: a sealed secret opens only as the secret of the endpoint it was sealed for. */
export function webhookSecretContext(endpointId: number): string {
  return `webhook-endpoint-secret:${endpointId}`;
}

export type SealedSecrets = {
  id: number;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
};

/**
 * The secrets that sign a delivery at `now`: the current one, and the previous one while a rotation's overlap lasts
 * (each makes one `v1,…` signature in the `webhook-signature` header).
 */
export function signingSecrets(sealer: Sealer, endpoint: SealedSecrets, now: Date): string[] {
  const context = webhookSecretContext(endpoint.id);
  const secrets = [sealer.open(endpoint.secretSealed, context)];
  if (
    endpoint.previousSecretSealed &&
    endpoint.previousSecretExpiresAt &&
    endpoint.previousSecretExpiresAt.getTime() > now.getTime()
  ) {
    secrets.push(sealer.open(endpoint.previousSecretSealed, context));
  }
  return secrets;
}
