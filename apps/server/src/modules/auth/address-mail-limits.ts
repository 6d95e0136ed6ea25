import { tooManyRequestsText } from '@veriform/contracts';
import { ipKey } from '../../lib/ip-key.ts';
import { type RateLimiter, type RateLimitRule, tooMany } from '../../lib/rate-limit.ts';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Limits of the e-mails anyone may ask us to send to an address (password reset, verification resend), ADR 12:
 * 3 an hour per address and IP pair, 10 an hour per IP (IPv6 by /64), both answered 429 — and at most 10 e-mails an
 * hour to one address, whoever asks. Reaching that ceiling is not refused: the answer stays the usual "if an account
 * exists, we sent a link" and nothing is sent. So nobody can lock a user out of recovery (the address already holds
 * recent links, each still valid), and nobody can flood an inbox. Every request counts, known address or not.
 */
export const ADDRESS_MAIL_LIMITS = { perAddressAndIp: 3, perIp: 10, perAddress: 10, windowMs: HOUR_MS };

/** Counts one request; answers whether the e-mail may be sent. Throws 429 when this client asked too often. */
export async function reserveAddressMail(
  rateLimit: RateLimiter,
  kind: string,
  address: string,
  ip: string,
): Promise<boolean> {
  const { windowMs } = ADDRESS_MAIL_LIMITS;
  const client = ipKey(ip);
  const perPair: RateLimitRule = {
    bucket: `${kind}:pair:${address}:${client}`,
    limit: ADDRESS_MAIL_LIMITS.perAddressAndIp,
    windowMs,
  };
  const perIp: RateLimitRule = { bucket: `${kind}:ip:${client}`, limit: ADDRESS_MAIL_LIMITS.perIp, windowMs };
  const perAddress: RateLimitRule = {
    bucket: `${kind}:email:${address}`,
    limit: ADDRESS_MAIL_LIMITS.perAddress,
    windowMs,
  };
  return rateLimit.locked([perPair.bucket, perIp.bucket, perAddress.bucket], async (scope) => {
    const decision = await scope.checkAll([perPair, perIp]);
    if (!decision.allowed) throw tooMany(decision, tooManyRequestsText);
    const send = (await scope.check(perAddress)).allowed;
    await scope.record(
      send ? [perPair.bucket, perIp.bucket, perAddress.bucket] : [perPair.bucket, perIp.bucket],
    );
    return send;
  });
}
