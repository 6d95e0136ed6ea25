/**
 * Error reporting (SPEC §9, DESIGN §2): Sentry, only where the deployment sets `SENTRY_DSN`. The server tells each page
 * whether to report and where, in its own `<script type="application/json">` beside the page data (the page data's
 * shape is the spec's; this is deployment configuration, not data about the user). No zod here: the public page
 * imports this module alone (`@veriform/contracts/client-config`); the schema is in error-reporting.ts.
 */
export const CLIENT_CONFIG_ELEMENT_ID = 'client-config';

/** SPEC §9: 5 % of traces and of sessions replayed, every session that meets an error replayed. */
export const errorReportingSampleRates = {
  traces: 0.05,
  replaysSession: 0.05,
  replaysOnError: 1,
} as const;

/**
 * What the Sentry SDKs (server and pages) may collect about people: nothing. Their defaults send the user, cookies,
 * headers, request and response bodies and query strings; these are phone numbers, addresses, sessions and CSRF tokens.
 */
export const errorReportingDataCollection = {
  userInfo: false,
  cookies: false,
  httpHeaders: false,
  httpBodies: [] as never[],
  urlQueryParams: false,
} as const;
