import type { ApiKeyRateLimit } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';

/**
 * API v1's per-key request limit: a fixed window per key in this process's memory (config.ts says why memory), told
 * to the caller on every answer in the IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy: "api-key";q=100;w=1` and `RateLimit: "api-key";r=99;t=1`. JavaScript runs one request's check at
 * a time, so a burst at once gets exactly `requests` through.
 */

export type KeyRateDecision = {
  allowed: boolean;
  /** Requests left in this window after this one. */
  remaining: number;
  /** Whole seconds until the window resets (≥ 1). */
  resetSeconds: number;
  headers: Record<string, string>;
};

const POLICY = 'api-key';
/** Windows of keys unseen for a while are dropped once this many are kept. */
const PRUNE_ABOVE = 10_000;

export function createKeyRateLimiter(clock: Clock, policy: ApiKeyRateLimit) {
  const windows = new Map<number, { startMs: number; used: number }>();
  const windowMs = policy.windowSeconds * 1000;
  const policyHeader = `"${POLICY}";q=${policy.requests};w=${policy.windowSeconds}`;

  function prune(nowMs: number) {
    for (const [keyId, window] of windows) if (nowMs - window.startMs >= windowMs) windows.delete(keyId);
  }

  function take(keyId: number): KeyRateDecision {
    const nowMs = clock.now().getTime();
    let window = windows.get(keyId);
    if (!window || nowMs - window.startMs >= windowMs) {
      if (windows.size >= PRUNE_ABOVE) prune(nowMs);
      window = { startMs: nowMs, used: 0 };
      windows.set(keyId, window);
    }
    const allowed = window.used < policy.requests;
    if (allowed) window.used += 1;
    const remaining = policy.requests - window.used;
    const resetSeconds = Math.max(1, Math.ceil((window.startMs + windowMs - nowMs) / 1000));
    return {
      allowed,
      remaining,
      resetSeconds,
      headers: {
        'RateLimit-Policy': policyHeader,
        RateLimit: `"${POLICY}";r=${remaining};t=${resetSeconds}`,
      },
    };
  }

  return { take };
}

export type KeyRateLimiter = ReturnType<typeof createKeyRateLimiter>;
