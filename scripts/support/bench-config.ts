import { randomBytes } from 'node:crypto';
import { type Config, loadConfig } from '../../apps/server/src/config.ts';

/**
 * The configuration the in-process benchmarks boot the app with: production mode on the given PostgreSQL database,
 * a throwaway SECRET_KEY, warnings only in the log; `env` adds to the environment (a stand-in's Twilio settings).
 */
export function benchConfig(databaseUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    ...process.env,
    ...env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    SECRET_KEY: randomBytes(32).toString('base64url'),
    PUBLIC_URL: 'http://localhost',
    LOG_LEVEL: 'warn',
  });
}
