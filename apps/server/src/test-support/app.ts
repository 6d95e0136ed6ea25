import type { DatabaseHandle } from '@veriform/db';
import { createTestDb } from '@veriform/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../app.ts';
import { type Config, type Env, loadConfig } from '../config.ts';
import type { HostResolver } from '../lib/webhook-url.ts';
import type { Mailer } from '../messaging/email.ts';
import type { TxtLookup } from '../modules/domains/proof.ts';
import { createTestClock, type TestClock } from './clock.ts';

export const TEST_PUBLIC_URL = 'https://veriform.example';
const TEST_SECRET_KEY = 'test-secret-key-that-is-long-enough-for-config';

/**
 * One migrated database per test file: a PGlite loaded from the template's dump, or a copy of the PostgreSQL
 * template (made while the worker's previous file runs, where files share a worker).
 */
export function openTestDb(): Promise<DatabaseHandle> {
  return createTestDb({ template: inject('testDbTemplate'), sharedWorker: inject('testDbSharedWorker') });
}

export function testConfig(env: Env = {}, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      NODE_ENV: 'test',
      SECRET_KEY: TEST_SECRET_KEY,
      PUBLIC_URL: TEST_PUBLIC_URL,
      LOG_LEVEL: 'silent',
      // Argon2id at a test's cost (lib/passwords.ts); the timing test of attack-checks asks for the real one, and a
      // production configuration (the cookies' tests) refuses it.
      ...(env.NODE_ENV === 'production' ? {} : { FAST_PASSWORD_HASHING: 'true' }),
      // Background work back to back: the pace is lib/pacing.ts's own test's; here it would only lengthen the tests.
      BACKGROUND_PAUSE_FACTOR: '0',
      ...env,
    }),
    // The built-in page shell, whether or not the web app has been built on this machine.
    webRoot: '/nonexistent/veriform-web',
    ...overrides,
  };
}

export type TestApp = { app: FastifyInstance; clock: TestClock; config: Config };

/** The app exactly as production builds it (buildApp), on the given database, with a clock the test moves. */
export async function buildTestApp(db: DatabaseHandle, options: TestAppOptions = {}): Promise<TestApp> {
  const clock = options.clock ?? createTestClock();
  const config = testConfig(options.env, options.config);
  const app = await buildApp(config, {
    db,
    clock,
    ...(options.mailer ? { mailer: options.mailer } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
    ...(options.lookupTxt ? { lookupTxt: options.lookupTxt } : {}),
  });
  await app.ready();
  return { app, clock, config };
}

export type TestAppOptions = {
  env?: Env;
  config?: Partial<Config>;
  mailer?: Mailer;
  clock?: TestClock;
  /** Receives the app's log lines (set `config.logLevel` too: tests are silent by default). */
  logStream?: { write(line: string): void };
  /** Resolves webhook URLs' host names instead of the operating system (names the test makes up). */
  resolveHost?: HostResolver;
  /** Looks up company domains' TXT records (a resolver pointed at the test's DNS server on loopback). */
  lookupTxt?: TxtLookup;
};

/** What `useTestApp()` hands a test file: the app, its clock and config, and the database under it. */
export type TestContext = TestApp & { db: DatabaseHandle };

/**
 * The usual set-up of a test file in one line: opens the file's own database and builds the app before the file's
 * tests, closes both after them. `options` may be a function, evaluated in the hook, when it depends on something
 * started earlier (an SMTP server's port). The answer reads through to the current app, so it can be captured at
 * module level:
 *
 *     const t = useTestApp();
 *     it('…', async () => { await t.app.inject(…); await t.db.db.select()…; t.clock.advance(…); });
 */
export function useTestApp(options: TestAppOptions | (() => TestAppOptions | Promise<TestAppOptions>) = {}) {
  let current: TestContext | undefined;
  beforeAll(async () => {
    const resolved = typeof options === 'function' ? await options() : options;
    const db = await openTestDb();
    try {
      current = { ...(await buildTestApp(db, resolved)), db };
    } catch (error) {
      await db.close();
      throw error;
    }
  });
  afterAll(async () => {
    if (!current) return;
    await current.app.close();
    await current.db.close();
    current = undefined;
  });
  const get = (): TestContext => {
    if (!current) throw new Error('useTestApp(): the app exists only inside tests and their hooks');
    return current;
  };
  return {
    get app() {
      return get().app;
    },
    get clock() {
      return get().clock;
    },
    get config() {
      return get().config;
    },
    get db() {
      return get().db;
    },
  } satisfies TestContext;
}
