import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { callerOf } from '../../plugins/caller.ts';
import { auditEventRoutes } from './audit-routes.ts';
import { contactabilityRoutes } from './contactability-routes.ts';
import { eventRoutes } from './events-routes.ts';
import { formRoutes } from './forms-routes.ts';
import { registerIdempotency } from './idempotency.ts';
import { createKeyRateLimiter } from './key-rate-limit.ts';
import { privacyRequestApiRoutes } from './privacy-requests-routes.ts';
import { reassignmentCheckRoutes } from './reassignment-routes.ts';
import { refreshRoutes } from './refresh-routes.ts';
import { revocationApiRoutes } from './revocations-routes.ts';
import { verificationRoutes } from './verifications-routes.ts';

/**
 * API v1 (issue #15; DESIGN §8): `/api/v1/…`, called by a customer's systems with an API key. Every route here
 * answers 401 without a live key (a session cookie is ignored: csrf.ts and session.ts skip these paths), counts the
 * key's request limit and says so in the RateLimit headers, then declares `config.account {from: 'apiKey', can}` so
 * the tenancy hook makes the key's AccountContext; errors are problem+json (problems.ts, via the one error handler).
 * The services are the app's own: a rule is written once for both doors.
 */

export async function apiV1Routes(app: FastifyInstance): Promise<void> {
  const { clock, config } = app.services;
  const limiter = createKeyRateLimiter(clock, config.apiKeyRateLimit);

  app.addHook('onRequest', async (request, reply) => {
    const caller = await callerOf(request);
    if (caller?.type !== 'api_key') {
      throw new AppError('not_authenticated', {
        detail: 'Send a live API key as `Authorization: Bearer vf_…` (Settings → API keys).',
        headers: { 'WWW-Authenticate': 'Bearer realm="Veriform API"' },
      });
    }
    const decision = limiter.take(caller.key.keyId);
    reply.headers(decision.headers);
    if (!decision.allowed) {
      throw new AppError('rate_limited', {
        detail: `Too many requests with this API key; retry in ${decision.resetSeconds} s.`,
        headers: { 'Retry-After': String(decision.resetSeconds) },
      });
    }
  });

  registerIdempotency(app);
  await app.register(formRoutes);
  await app.register(verificationRoutes);
  await app.register(reassignmentCheckRoutes);
  await app.register(refreshRoutes);
  await app.register(auditEventRoutes);
  await app.register(eventRoutes);
  await app.register(revocationApiRoutes);
  await app.register(contactabilityRoutes);
  await app.register(privacyRequestApiRoutes);
}
