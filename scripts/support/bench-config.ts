import { randomBytes } from 'node:crypto';
import { type Config, loadConfig } from '../../apps/server/src/config.ts';

/**
 * The configuration the in-process benchmarks boot the app with: production mode on the given PostgreSQL database,
 * a throwaway SECRET_KEY, warnings only in the log.
 */
export function benchConfig(databaseUrl: string): Config {
  return loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    SECRET_KEY: randomBytes(32).toString('base64url'),
    PUBLIC_URL: 'http://localhost',
    LOG_LEVEL: 'warn',
  });
}
