import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@veriform/contracts';
import { z } from 'zod';
import { DEFAULT_BACKGROUND_PAUSE_FACTOR } from './lib/pacing.ts';

/**
 * The server's configuration: the only place that reads the environment (DESIGN §6). Parsed once by `loadConfig()`;
 * everything else receives the resulting `Config`.
 */

/** `<repo>`; relative paths are resolved against it, because `npm start` runs with the cwd in apps/server. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

const flag = z
  .string()
  .optional()
  .transform((v) => v === '1' || v?.toLowerCase() === 'true');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: optionalString,
  DATABASE_URL: optionalString,
  DATA_DIR: optionalString,
  SECRET_KEY: optionalString,
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  SMTP_URL: optionalString.pipe(z.url().optional()),
  EMAIL_FROM: optionalString,
  TWILIO_ACCOUNT_SID: optionalString,
  TWILIO_AUTH_TOKEN: optionalString,
  TWILIO_FROM: optionalString,
  /** Tests and local development only: sends Twilio's API calls to this origin (a stand-in server) instead. */
  TWILIO_API_URL: optionalString.pipe(z.url().optional()),
  /** Error reporting (Sentry) for the server and the pages it serves; unset: nothing is reported. */
  SENTRY_DSN: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  VITE_DEV_SERVER: flag,
  /** Tests and local development only: webhooks may go to loopback and private addresses (http://127.0.0.1:…). */
  WEBHOOKS_ALLOW_PRIVATE_URLS: flag,
  /**
   * Tests and local development only: a company domain's file proof may be fetched over http:// from a loopback host
   * with a port (`127.0.0.1:8080`), and from private addresses.
   */
  DOMAIN_PROOF_ALLOW_HTTP: flag,
  /** Tests only: passwords hashed with argon2id at 1 MiB and one pass instead of OWASP's cost (lib/passwords.ts). */
  FAST_PASSWORD_HASHING: flag,
  /**
   * Tests and local development only: an idle job worker looks for work at most every this many seconds (a queue's own
   * longer interval stays); jobs this process enqueues still wake its worker at once.
   */
  JOB_POLLING_MIN_SECONDS: optionalString.pipe(
    z.coerce.number<string | undefined>().int().min(1).max(300).optional(),
  ),
  /**
   * Background work's pause after each step, as a multiple of the step's time (lib/pacing.ts): 4 by default (the
   * retention purge and an erasure run a fifth of the time, leaving the rest to requests); 0 runs them flat out.
   */
  BACKGROUND_PAUSE_FACTOR: optionalString.pipe(
    z.coerce.number<string | undefined>().min(0).max(20).optional(),
  ),
  /** Behind a reverse proxy: 'true', a hop count, or a comma-separated list of proxy addresses (Fastify trustProxy). */
  TRUST_PROXY: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /** Seconds a client has to send one whole request, body included (DEFAULT_REQUEST_TIMEOUT_MS otherwise). */
  REQUEST_TIMEOUT_SECONDS: optionalString.pipe(
    z.coerce.number<string | undefined>().int().min(1).max(3600).optional(),
  ),
  /** Text messages one account may send a day (toll fraud: the bill's ceiling); DEFAULT_CODE_SEND_LIMITS otherwise. */
  SMS_PER_ACCOUNT_PER_DAY: optionalString.pipe(
    z.coerce.number<string | undefined>().int().positive().optional(),
  ),
  /** Which Ed25519 key, derived from SECRET_KEY, signs certificates (ADR 24); raise it by one to rotate. */
  CERTIFICATE_KEY_GENERATION: optionalString.pipe(
    z.coerce.number<string | undefined>().int().min(1).max(1_000_000).optional(),
  ),
});

export type Env = Record<string, string | undefined>;

export type Config = {
  nodeEnv: 'development' | 'test' | 'production';
  isProduction: boolean;
  port: number;
  host: string;
  /** Unset: embedded PGlite under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  secretKey: string;
  /** Origin for links in e-mails, without a trailing slash; never taken from the Host header. */
  publicUrl: string;
  smtpUrl: string | undefined;
  emailFrom: string;
  /** `apiUrl`: TWILIO_API_URL, a stand-in for api.twilio.com (tests and development only; refused in production). */
  twilio: { accountSid: string; authToken: string; from: string; apiUrl: string | undefined } | undefined;
  sentryDsn: string | undefined;
  /** Vite in middleware mode with HMR (development only). */
  viteDevServer: boolean;
  trustProxy: boolean | number | string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** How long one request may take to arrive, headers and body (app.ts derives the other socket timeouts from it). */
  requestTimeoutMs: number;
  /** apps/web: vite.config.ts and index.html there, the build in `dist`. */
  webRoot: string;
  /** Public verification: how many codes may be sent, and wrong codes tried (DEFAULT_CODE_SEND_LIMITS). */
  codeSendLimits: CodeSendLimits;
  /** API v1: requests per API key and window, per process (DEFAULT_API_KEY_RATE_LIMIT). */
  apiKeyRateLimit: ApiKeyRateLimit;
  /**
   * WEBHOOKS_ALLOW_PRIVATE_URLS: webhook URLs may point to loopback (tests and development; refused in production);
   * link-local, private and other internal addresses stay refused, see lib/webhook-url.ts.
   */
  webhooksAllowPrivateUrls: boolean;
  /**
   * DOMAIN_PROOF_ALLOW_HTTP: a company domain may be `localhost:<port>` or `127.0.0.1:<port>`, its file proof is then
   * fetched over http://, and the file check may reach private addresses (tests and development; refused in
   * production), see modules/domains/proof.ts.
   */
  domainProofAllowHttp: boolean;
  /** FAST_PASSWORD_HASHING: tests only (refused in production), lib/passwords.ts. */
  fastPasswordHashing: boolean;
  /**
   * JOB_POLLING_MIN_SECONDS (tests and development; refused in production): the shortest polling interval of an idle
   * job worker, which otherwise polls at its job's own (jobs/define.ts). For an app that the tests leave idle most of
   * the time: its pollers cost CPU the other apps' journeys need. Unset: each job's own interval.
   */
  jobPollingMinSeconds: number | undefined;
  /** BACKGROUND_PAUSE_FACTOR (DEFAULT_BACKGROUND_PAUSE_FACTOR unset): lib/pacing.ts. */
  backgroundPauseFactor: number;
  /**
   * Seconds between a webhook delivery's failed attempts (contracts' WEBHOOK_RETRY_DELAYS_SECONDS, each ±10 %); its
   * length is the number of retries. Not from the environment: tests override it through `config` with short ones.
   */
  webhookRetryDelaysSeconds: readonly number[];
  /** How long one delivery attempt waits for the receiver's answer (10 s, issue #17); tests shorten it. */
  webhookTimeoutMs: number;
  /**
   * How long a carrier lookup (Twilio Lookup v2, issue #36) waits for its answer before it fails as an error to retry
   * (10 s: a SIM swap answer waits on the carrier); not from the environment, tests shorten it.
   */
  lookupTimeoutMs: number;
  /**
   * How long a contactability verdict waits for the reassigned-number checks it found due (issue #36, ADR 43) before
   * it judges on what is known: a check still running then is kept when it ends, for the next verdict. 5 s: a single
   * number's check takes well under a second; a batch's checks go 8 at once. Not from the environment; tests shorten
   * it.
   */
  reassignmentCheckWaitMs: number;
  /**
   * The daily reassigned-number sweep's pace (issue #36, ADR 43): checks started per second at most. 5: 100k numbers in
   * about 5.6 hours, while the load mix beside it stayed within 1.1× of its p95 (1.06× and 1.10× against the runs
   * around it; at 10 a second 1.05–1.18×, unpaced 1.18×: docs/benchmarks.md, session 30). Not from the environment.
   */
  reassignmentSweepChecksPerSecond: number;
  /**
   * How long a code send waits for the carrier lookups it asks (issue #36 item 1; 2.5 s): a lookup not answered by then
   * is abandoned for this send, which goes on as if the carrier told nothing (its record may still land, reused within
   * the day). Not from the environment; tests set it.
   */
  lookupAtSendTimeoutMs: number;
  /**
   * CERTIFICATE_KEY_GENERATION (default 1): the certificate signing key is derived from SECRET_KEY and this number
   * (modules/certificates/keys.ts); raising it rotates the key, and certificates signed before keep verifying.
   */
  certificateKeyGeneration: number;
};

export type ApiKeyRateLimit = { requests: number; windowSeconds: number };

/**
 * Per API key, like Stripe's 100 requests a second: a runaway integration cannot crowd out the account's other keys
 * or the app. Counted in each process's memory (it guards capacity, not money: every code sent is still counted in
 * PostgreSQL by the code-send limits), so N processes let N times through. Tests override it through `config`.
 */
export const DEFAULT_API_KEY_RATE_LIMIT: ApiKeyRateLimit = { requests: 100, windowSeconds: 1 };

export type CodeSendLimits = {
  perPhonePerDay: number;
  perEmailPerDay: number;
  perIpPerDay: number;
  /** Codes by text message, per account (SMS_PER_ACCOUNT_PER_DAY). */
  smsPerAccountPerDay: number;
  /** Codes by e-mail, per account: cheap, but a runaway form should stop too. */
  emailPerAccountPerDay: number;
  wrongChecksPerIpPerHour: number;
};

/**
 * Every code sent costs money and lands on someone's phone, so sends are capped over a rolling day, counted in
 * PostgreSQL (they hold across processes). Per phone: a person retrying many times, never a stranger's phone flooded.
 * Per e-mail address, likewise: codes by e-mail cannot bomb an inbox.
 * Per IP: one connection cannot run through many numbers (carrier NAT shares addresses, hence higher). Per account,
 * text messages and e-mails each: a runaway or abused form stops before the bill does; the SMS cap is the one that
 * costs money (toll fraud), so operators set it with SMS_PER_ACCOUNT_PER_DAY. Wrong checks per IP and hour stop
 * guessing across many attempts (each attempt also locks after 5 wrong tries). The others are product rules, changed
 * in code; tests override any of them through `buildTestApp(db, {config})`.
 */
export const DEFAULT_CODE_SEND_LIMITS: CodeSendLimits = {
  perPhonePerDay: 10,
  perEmailPerDay: 10,
  perIpPerDay: 50,
  smsPerAccountPerDay: 10_000,
  emailPerAccountPerDay: 10_000,
  wrongChecksPerIpPerHour: 30,
};

/**
 * A request (headers and body) must have arrived within a minute: a 6 MB upload needs 800 kbit/s for that, and a
 * client trickling bytes to hold a connection open is cut off (issue #13 item 10b). Raise REQUEST_TIMEOUT_SECONDS
 * where uploads come over slower links.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export class ConfigError extends Error {}

const SECRET_KEY_MIN_LENGTH = 32;

/** Outside production the key is generated once and kept in DATA_DIR, so sessions survive restarts. */
function readOrCreateSecretKey(dataDir: string): string {
  const file = join(dataDir, 'secret-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      // 'wx': when two processes start at once, exactly one writes and the other reads its key.
      writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
}

/** Where the embedded PGlite keeps its files (without DATABASE_URL): its own folder under DATA_DIR. */
export function pgliteDirOf(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'pglite');
}

function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((s) => s.trim());
}

export function loadConfig(env: Env = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const dataDir = resolve(repoRoot, e.DATA_DIR ?? './data');

  let secretKey = e.SECRET_KEY;
  if (!secretKey) {
    if (isProduction) throw new ConfigError('SECRET_KEY is required when NODE_ENV=production.');
    secretKey = readOrCreateSecretKey(dataDir);
  }
  if (secretKey.length < SECRET_KEY_MIN_LENGTH) {
    throw new ConfigError(`SECRET_KEY must be at least ${SECRET_KEY_MIN_LENGTH} characters long.`);
  }
  if (isProduction && e.VITE_DEV_SERVER) {
    throw new ConfigError('VITE_DEV_SERVER is for development only; unset it when NODE_ENV=production.');
  }

  const twilio =
    e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_FROM
      ? {
          accountSid: e.TWILIO_ACCOUNT_SID,
          authToken: e.TWILIO_AUTH_TOKEN,
          from: e.TWILIO_FROM,
          apiUrl: e.TWILIO_API_URL?.replace(/\/+$/, ''),
        }
      : undefined;
  // The SDK refuses any other shape, but loads only with the first SMS (messaging/sms.ts): say it at start instead.
  if (twilio && !/^AC[0-9a-fA-F]{32}$/.test(twilio.accountSid)) {
    throw new ConfigError('TWILIO_ACCOUNT_SID must be "AC" followed by 32 hexadecimal characters.');
  }
  if (isProduction && e.TWILIO_API_URL) {
    throw new ConfigError(
      'TWILIO_API_URL is for tests and development only; unset it when NODE_ENV=production.',
    );
  }

  if (isProduction && e.WEBHOOKS_ALLOW_PRIVATE_URLS) {
    throw new ConfigError(
      'WEBHOOKS_ALLOW_PRIVATE_URLS is for tests and development only; unset it when NODE_ENV=production.',
    );
  }

  if (isProduction && e.FAST_PASSWORD_HASHING) {
    throw new ConfigError('FAST_PASSWORD_HASHING is for tests only; unset it when NODE_ENV=production.');
  }

  if (isProduction && e.JOB_POLLING_MIN_SECONDS !== undefined) {
    throw new ConfigError(
      'JOB_POLLING_MIN_SECONDS is for tests and development only; unset it when NODE_ENV=production.',
    );
  }

  if (isProduction && e.DOMAIN_PROOF_ALLOW_HTTP) {
    throw new ConfigError(
      'DOMAIN_PROOF_ALLOW_HTTP is for tests and development only; unset it when NODE_ENV=production.',
    );
  }

  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST ?? '127.0.0.1',
    databaseUrl: e.DATABASE_URL,
    dataDir,
    secretKey,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    emailFrom: e.EMAIL_FROM ?? 'Veriform <no-reply@veriform.localhost>',
    twilio,
    sentryDsn: e.SENTRY_DSN,
    viteDevServer: e.VITE_DEV_SERVER,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS
      ? e.REQUEST_TIMEOUT_SECONDS * 1000
      : DEFAULT_REQUEST_TIMEOUT_MS,
    webRoot: join(repoRoot, 'apps', 'web'),
    codeSendLimits: {
      ...DEFAULT_CODE_SEND_LIMITS,
      smsPerAccountPerDay: e.SMS_PER_ACCOUNT_PER_DAY ?? DEFAULT_CODE_SEND_LIMITS.smsPerAccountPerDay,
    },
    apiKeyRateLimit: DEFAULT_API_KEY_RATE_LIMIT,
    webhooksAllowPrivateUrls: e.WEBHOOKS_ALLOW_PRIVATE_URLS,
    domainProofAllowHttp: e.DOMAIN_PROOF_ALLOW_HTTP,
    fastPasswordHashing: e.FAST_PASSWORD_HASHING,
    jobPollingMinSeconds: e.JOB_POLLING_MIN_SECONDS,
    backgroundPauseFactor: e.BACKGROUND_PAUSE_FACTOR ?? DEFAULT_BACKGROUND_PAUSE_FACTOR,
    webhookRetryDelaysSeconds: WEBHOOK_RETRY_DELAYS_SECONDS,
    webhookTimeoutMs: 10_000,
    lookupTimeoutMs: 10_000,
    reassignmentCheckWaitMs: 5_000,
    reassignmentSweepChecksPerSecond: 5,
    lookupAtSendTimeoutMs: 2_500,
    certificateKeyGeneration: e.CERTIFICATE_KEY_GENERATION ?? 1,
  };
}
