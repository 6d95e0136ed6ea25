/**
 * Where the browser tests' servers listen (playwright.config.ts starts them): the app, a second app that reports
 * errors (SENTRY_DSN), and the Sentry stand-in it reports to.
 */
export const appPort = Number(process.env.E2E_PORT ?? 4310);
export const baseURL = `http://localhost:${appPort}`;
export const reportingPort = appPort + 1;
export const reportingBaseURL = `http://localhost:${reportingPort}`;
export const sentryStandInPort = appPort + 2;
export const sentryStandInURL = `http://127.0.0.1:${sentryStandInPort}`;

/**
 * Replies to code texts (issue #35): a third app whose text messages go to a Twilio stand-in (TWILIO_API_URL) instead
 * of the development outbox, and the stand-in, which answers the Messages API and, on its control port, lists what it
 * received and posts a consumer's signed reply to that app's inbound webhook (e2e/twilio-stand-in.ts).
 */
export const twilioAppPort = appPort + 3;
export const twilioAppBaseURL = `http://localhost:${twilioAppPort}`;
export const twilioStandInPort = appPort + 4;
export const twilioStandInControlPort = appPort + 5;
export const twilioStandInControlURL = `http://127.0.0.1:${twilioStandInControlPort}`;

/**
 * The retention purge's journey (issue #37, e2e/purged-certificate.spec.ts): a fourth app on a PostgreSQL database of
 * its own (e2e/postgres.ts), which the journey reaches directly to age its evidence and run the real purge on it.
 */
export const postgresAppPort = appPort + 6;
export const postgresAppBaseURL = `http://localhost:${postgresAppPort}`;
