import rateLimit from '@fastify/rate-limit';
import { tooManyRequestsText } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { AppError } from '../lib/errors.ts';
import { ipKey } from '../lib/ip-key.ts';

/** Requests per IP and minute before the generic backstop answers 429 (per process; DESIGN §7). */
export const GLOBAL_RATE_LIMIT = { max: 600, timeWindowMs: 60_000 };

/**
 * Security headers and the generic per-IP request limit. The CSP is strict (scripts only from our origin, no inline
 * script — the initial-data tag is `type="application/json"`, which is data and not executed) except in Vite dev
 * mode, where Vite injects inline scripts and a WebSocket client.
 *
 * The headers come from helmet itself, its middleware built once: @fastify/helmet built it anew on every request
 * (per-route options and nonces, which we use neither of), ~2 % of the server's JavaScript under load (issue #20).
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  const { config } = app.services;
  const https = config.publicUrl.startsWith('https://');
  // With error reporting on, pages send their reports to Sentry's origin, and session replays compress in a worker.
  const reportTo = config.sentryDsn ? [new URL(config.sentryDsn).origin] : [];
  const securityHeaders = helmet({
    contentSecurityPolicy: config.viteDevServer
      ? false
      : {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'"],
            // Mantine sets inline styles and injects style tags.
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", 'data:', 'blob:'],
            fontSrc: ["'self'", 'data:'],
            connectSrc: ["'self'", ...reportTo],
            workerSrc: config.sentryDsn ? ["'self'", 'blob:'] : null,
            objectSrc: ["'none'"],
            baseUri: ["'self'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"],
            // Only where the public URL is https: upgrading on plain-http localhost would break the page.
            upgradeInsecureRequests: https ? [] : null,
          },
        },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    // helmet throws what goes wrong (8.1+) and calls back only on success.
    securityHeaders(request.raw, reply.raw, () => done());
  });
  // API answers carry personal data (users, teams, phone numbers, CSV exports): no browser or shared cache keeps
  // them, unless the route chose its own policy (the public form: private, no-cache).
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('Cache-Control'))
      reply.header('Cache-Control', 'no-store');
  });
  await app.register(rateLimit, {
    global: true,
    max: GLOBAL_RATE_LIMIT.max,
    timeWindow: GLOBAL_RATE_LIMIT.timeWindowMs,
    // The app's one rule for per-IP keys (IPv6 by /64), rather than the plugin's own copy of it.
    keyGenerator: (request) => ipKey(request.ip),
    // Built assets are immutable, cheap files; a page load fetches many of them.
    allowList: (request) => request.url.startsWith('/assets/'),
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', { detail: tooManyRequestsText(context.ttl / 1000) }),
  });
}
