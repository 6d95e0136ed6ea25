import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { SENTRY_TEST_PROJECT_ID, SENTRY_TEST_PUBLIC_KEY } from './apps/server/src/test-support/sentry.ts';
import { TWILIO_TEST_CREDENTIALS } from './apps/server/src/test-support/twilio.ts';
import {
  appPort,
  baseURL,
  postgresAppBaseURL,
  postgresAppPort,
  reportingBaseURL,
  reportingPort,
  sentryStandInPort,
  sentryStandInURL,
  twilioAppBaseURL,
  twilioAppPort,
  twilioStandInControlURL,
  twilioStandInPort,
} from './e2e/ports.ts';
import { newE2eDatabaseName } from './e2e/postgres.ts';

/**
 * Browser tests walk the journeys in Debian's Chromium against the app as `npm start` runs it: the built web app,
 * the embedded PGlite database in a fresh data directory, and the development outbox for e-mail. The PGlite apps
 * start through e2e/pglite-app.ts, which copies one database migrated once per run into each app's data directory
 * (Playwright starts the apps one after another, and each migrating its own took ~10 s of CPU) and then runs the
 * server exactly as `node apps/server/src/server.ts`.
 */
// Made once in the main process; workers inherit the variable instead of making their own.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'veriform-e2e-'));
const dataDir = process.env.E2E_DATA_DIR;
// The fourth app's PostgreSQL database (e2e/postgres.ts), named once here as the data directory is.
process.env.E2E_POSTGRES_DATABASE ??= newE2eDatabaseName(randomBytes(6).toString('hex'));

function appEnv(appPort: number, appDataDir: string): Record<string, string> {
  return {
    PORT: String(appPort),
    DATA_DIR: appDataDir,
    PUBLIC_URL: `http://localhost:${appPort}`,
    NODE_ENV: 'test',
    // Each test browses from its own client address (X-Forwarded-For through one trusted loopback hop), so
    // per-IP limits (sign-ups, failed logins) apply to each test as to a separate person, at full strength.
    TRUST_PROXY: '127.0.0.1',
    // Webhook journeys deliver to a receiver the test starts on 127.0.0.1 (refused in production).
    WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
    // Domain journeys serve the proof file from a server the test starts on 127.0.0.1 (refused in production).
    DOMAIN_PROOF_ALLOW_HTTP: 'true',
  };
}

/**
 * The second and third apps serve a few journeys and idle the rest of the run, their job workers polling every queue
 * (every 0.5–2 s) for work no one gives them: ~2 s of CPU a minute each, which the journeys on the first app need.
 * Their journeys only run jobs the app enqueues itself, which wake its workers at once, so they poll every 30 s.
 */
const IDLE_APP_ENV = { JOB_POLLING_MIN_SECONDS: '30' };

export default defineConfig({
  testDir: './e2e',
  globalTeardown: './e2e/global-teardown.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // Hang detectors, not speed checks (speed lives in the benchmark scripts). CI shares its 2 cores with other work:
  // on 2026-11-24 the same journeys took 2.3x as long there as on a quiet machine (the longest 16 s -> 33 s), so
  // the limits leave room for that.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    baseURL,
    // No trace: recording one for every journey (kept only on failure) cost ~17 % of the journeys' wall time on the
    // 2-core machine, whose cores the journeys already fill (docs/benchmarks.md, session 29). A failure keeps its
    // screenshot; `npx playwright test <file> --trace=on` records one when a failure needs it.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      command: 'node e2e/pglite-app.ts',
      url: `${baseURL}/auth/login/`,
      reuseExistingServer: false,
      // The first app also writes the run's migrated template (e2e/pglite-app.ts): 54 s on the shared machine at load 20.
      timeout: 90_000,
      env: appEnv(appPort, dataDir),
    },
    // Error reporting (e2e/error-reporting.spec.ts): a stand-in of Sentry's ingestion endpoint, and a second app
    // configured to report there. Everything else runs against the first app, which has no SENTRY_DSN.
    {
      command: 'node e2e/sentry-stand-in.ts',
      url: `${sentryStandInURL}/received`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { SENTRY_STAND_IN_PORT: String(sentryStandInPort) },
    },
    {
      command: 'node e2e/pglite-app.ts',
      url: `${reportingBaseURL}/auth/login/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...appEnv(reportingPort, join(dataDir, 'reporting')),
        ...IDLE_APP_ENV,
        SENTRY_DSN: `http://${SENTRY_TEST_PUBLIC_KEY}@127.0.0.1:${sentryStandInPort}/${SENTRY_TEST_PROJECT_ID}`,
      },
    },
    // Replies to code texts (issue #35, e2e/revocation-reply.spec.ts): a Twilio stand-in, and a third app that sends
    // its text messages there (every other journey reads codes from the first app's development outbox).
    {
      command: 'node e2e/twilio-stand-in.ts',
      url: `${twilioStandInControlURL}/received`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: 'node e2e/pglite-app.ts',
      url: `${twilioAppBaseURL}/auth/login/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...appEnv(twilioAppPort, join(dataDir, 'twilio')),
        ...IDLE_APP_ENV,
        TWILIO_ACCOUNT_SID: TWILIO_TEST_CREDENTIALS.accountSid,
        TWILIO_AUTH_TOKEN: TWILIO_TEST_CREDENTIALS.authToken,
        TWILIO_FROM: TWILIO_TEST_CREDENTIALS.from,
        TWILIO_API_URL: `http://127.0.0.1:${twilioStandInPort}`,
      },
    },
    // The retention purge's journey (issue #37, e2e/purged-certificate.spec.ts): a fourth app on a PostgreSQL database
    // of its own, which the journey reaches to age its evidence and run the real purge (the others run on PGlite in
    // their own processes, out of a test's reach). e2e/postgres-app.ts creates the database and drops it once the app
    // has stopped, which it does on the signal below (without one, Playwright kills the process group outright).
    {
      command: 'node e2e/postgres-app.ts',
      url: `${postgresAppBaseURL}/auth/login/`,
      reuseExistingServer: false,
      timeout: 60_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
      env: {
        ...appEnv(postgresAppPort, join(dataDir, 'postgres')),
        E2E_POSTGRES_DATABASE: process.env.E2E_POSTGRES_DATABASE,
      },
    },
  ],
});
