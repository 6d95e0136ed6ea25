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
