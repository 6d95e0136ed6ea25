import { startSentryStandIn } from '../apps/server/src/test-support/sentry.ts';

/**
 * The browser tests' Sentry: the server tests' stand-in of Sentry's ingestion endpoint, as a process of its own that
 * Playwright starts (playwright.config.ts). The error-reporting journey reads what it received at GET /received.
 */
const port = Number(process.env.SENTRY_STAND_IN_PORT ?? 4312);
const standIn = await startSentryStandIn(port);
console.log(`Sentry stand-in listening at ${standIn.origin}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void standIn.close().then(() => process.exit(0)));
}
