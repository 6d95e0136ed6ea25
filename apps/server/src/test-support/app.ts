import type { DatabaseHandle } from '@veriform/db';
import { createTestDb } from '@veriform/db/testing';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../app.ts';
import { type Config, type Env, loadConfig } from '../config.ts';
import type { Mailer } from '../messaging/email.ts';
import { createTestClock, type TestClock } from './clock.ts';

export const TEST_PUBLIC_URL = 'https://veriform.example';
const TEST_SECRET_KEY = 'test-secret-key-that-is-long-enough-for-config';

/** One migrated database per test file (a PGlite clone, or a copy of the PostgreSQL template). */
export function openTestDb(): Promise<DatabaseHandle> {
  return createTestDb({ template: inject('testDbTemplate') });
}

export function testConfig(env: Env = {}, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      NODE_ENV: 'test',
      SECRET_KEY: TEST_SECRET_KEY,
      PUBLIC_URL: TEST_PUBLIC_URL,
      LOG_LEVEL: 'silent',
      ...env,
    }),
    // The built-in page shell, whether or not the web app has been built on this machine.
    webRoot: '/nonexistent/veriform-web',
    ...overrides,
  };
}

export type TestApp = { app: FastifyInstance; clock: TestClock; config: Config };

/** The app exactly as production builds it (buildApp), on the given database, with a clock the test moves. */
export async function buildTestApp(
  db: DatabaseHandle,
  options: { env?: Env; config?: Partial<Config>; mailer?: Mailer; clock?: TestClock } = {},
): Promise<TestApp> {
  const clock = options.clock ?? createTestClock();
  const config = testConfig(options.env, options.config);
  const app = await buildApp(config, { db, clock, ...(options.mailer ? { mailer: options.mailer } : {}) });
  await app.ready();
  return { app, clock, config };
}
