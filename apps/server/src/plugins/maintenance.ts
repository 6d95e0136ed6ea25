import type { FastifyInstance } from 'fastify';

const HOUR_MS = 60 * 60 * 1000;

/** Hourly clean-up of rows that only accumulate: old rate-limit events and expired sessions. */
export function registerMaintenance(app: FastifyInstance): void {
  const { rateLimit, sessions } = app.services;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      Promise.all([rateLimit.prune(), sessions.pruneExpired()]).catch((error: unknown) =>
        app.log.error({ err: error }, 'maintenance failed'),
      );
    }, HOUR_MS);
    // Never keeps the process alive on its own.
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
