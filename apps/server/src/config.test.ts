import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CODE_SEND_LIMITS, loadConfig, repoRoot } from './config.ts';

const KEY = 'k'.repeat(40);

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({ SECRET_KEY: KEY });
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: join(repoRoot, 'data'),
      publicUrl: 'http://localhost:3000',
      emailFrom: 'Veriform <no-reply@veriform.localhost>',
      viteDevServer: false,
      trustProxy: false,
    });
  });

  it('resolves a relative DATA_DIR against the repository root, whatever the cwd', () => {
    expect(loadConfig({ SECRET_KEY: KEY, DATA_DIR: './somewhere' }).dataDir).toBe(
      join(repoRoot, 'somewhere'),
    );
  });

  it('derives PUBLIC_URL from PORT and drops a trailing slash', () => {
    expect(loadConfig({ SECRET_KEY: KEY, PORT: '4310' }).publicUrl).toBe('http://localhost:4310');
    expect(loadConfig({ SECRET_KEY: KEY, PUBLIC_URL: 'https://app.example/' }).publicUrl).toBe(
      'https://app.example',
    );
  });

  it('generates the secret key once into DATA_DIR (mode 0600) outside production and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vf-config-'));
    const first = loadConfig({ DATA_DIR: dir }).secretKey;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'secret-key'), 'utf8')).toBe(first);
    expect(statSync(join(dir, 'secret-key')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).secretKey).toBe(first);
  });

  it('requires SECRET_KEY in production, and a long one', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', SECRET_KEY: 'short' })).toThrow(/at least 32/);
    expect(loadConfig({ NODE_ENV: 'production', SECRET_KEY: KEY }).isProduction).toBe(true);
  });

  it("SMS_PER_ACCOUNT_PER_DAY sets the cap on an account's text messages a day (10,000 unset)", () => {
    const defaults = loadConfig({ SECRET_KEY: KEY }).codeSendLimits;
    expect(defaults).toEqual(DEFAULT_CODE_SEND_LIMITS);
    expect(defaults).toMatchObject({ smsPerAccountPerDay: 10_000, emailPerAccountPerDay: 10_000 });
    expect(loadConfig({ SECRET_KEY: KEY, SMS_PER_ACCOUNT_PER_DAY: ' 250 ' }).codeSendLimits).toEqual({
      ...DEFAULT_CODE_SEND_LIMITS,
      smsPerAccountPerDay: 250,
    });
    expect(loadConfig({ SECRET_KEY: KEY, SMS_PER_ACCOUNT_PER_DAY: '' }).codeSendLimits).toEqual(defaults);
    for (const value of ['0', '-5', '1.5', 'many']) {
      expect(() => loadConfig({ SECRET_KEY: KEY, SMS_PER_ACCOUNT_PER_DAY: value })).toThrow(
        /SMS_PER_ACCOUNT_PER_DAY/,
      );
    }
  });

  it('refuses nonsense with a readable message', () => {
    expect(() => loadConfig({ SECRET_KEY: KEY, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ SECRET_KEY: KEY, NODE_ENV: 'staging' })).toThrow(/NODE_ENV/);
    expect(() => loadConfig({ NODE_ENV: 'production', SECRET_KEY: KEY, VITE_DEV_SERVER: '1' })).toThrow(
      /development only/,
    );
    const twilio = { TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM: '+12015550123' };
    expect(() => loadConfig({ SECRET_KEY: KEY, ...twilio, TWILIO_ACCOUNT_SID: 'not-a-sid' })).toThrow(
      /TWILIO_ACCOUNT_SID/,
    );
    const sid = `AC${'ab12'.repeat(8)}`;
    expect(loadConfig({ SECRET_KEY: KEY, ...twilio, TWILIO_ACCOUNT_SID: sid }).twilio?.accountSid).toBe(sid);
  });

  it('lets webhooks reach private addresses only outside production (WEBHOOKS_ALLOW_PRIVATE_URLS)', () => {
    expect(loadConfig({ SECRET_KEY: KEY }).webhooksAllowPrivateUrls).toBe(false);
    expect(
      loadConfig({ SECRET_KEY: KEY, WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' }).webhooksAllowPrivateUrls,
    ).toBe(true);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', SECRET_KEY: KEY, WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' }),
    ).toThrow(/WEBHOOKS_ALLOW_PRIVATE_URLS is for tests and development only/);
    expect(loadConfig({ NODE_ENV: 'production', SECRET_KEY: KEY }).webhooksAllowPrivateUrls).toBe(false);
  });

  it('slows idle job workers only outside production, within 1–300 s (JOB_POLLING_MIN_SECONDS)', () => {
    expect(loadConfig({ SECRET_KEY: KEY }).jobPollingMinSeconds).toBeUndefined();
    expect(loadConfig({ SECRET_KEY: KEY, JOB_POLLING_MIN_SECONDS: '30' }).jobPollingMinSeconds).toBe(30);
    for (const bad of ['0', '301', '1.5', 'soon'])
      expect(() => loadConfig({ SECRET_KEY: KEY, JOB_POLLING_MIN_SECONDS: bad })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', SECRET_KEY: KEY, JOB_POLLING_MIN_SECONDS: '30' }),
    ).toThrow(/JOB_POLLING_MIN_SECONDS is for tests and development only/);
  });

  it('paces background work by 4 unless BACKGROUND_PAUSE_FACTOR says otherwise (0–20, production too)', () => {
    expect(loadConfig({ SECRET_KEY: KEY }).backgroundPauseFactor).toBe(4);
    expect(loadConfig({ SECRET_KEY: KEY, BACKGROUND_PAUSE_FACTOR: '0' }).backgroundPauseFactor).toBe(0);
    expect(loadConfig({ SECRET_KEY: KEY, BACKGROUND_PAUSE_FACTOR: '1.5' }).backgroundPauseFactor).toBe(1.5);
    expect(
      loadConfig({ NODE_ENV: 'production', SECRET_KEY: KEY, BACKGROUND_PAUSE_FACTOR: '9' })
        .backgroundPauseFactor,
    ).toBe(9);
    for (const bad of ['-1', '21', 'slow', 'Infinity'])
      expect(() => loadConfig({ SECRET_KEY: KEY, BACKGROUND_PAUSE_FACTOR: bad })).toThrow(ConfigError);
  });

  it('lets the domain file proof use http:// and loopback hosts only outside production (DOMAIN_PROOF_ALLOW_HTTP)', () => {
    expect(loadConfig({ SECRET_KEY: KEY }).domainProofAllowHttp).toBe(false);
    expect(loadConfig({ SECRET_KEY: KEY, DOMAIN_PROOF_ALLOW_HTTP: 'true' }).domainProofAllowHttp).toBe(true);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', SECRET_KEY: KEY, DOMAIN_PROOF_ALLOW_HTTP: 'true' }),
    ).toThrow(/DOMAIN_PROOF_ALLOW_HTTP is for tests and development only/);
    expect(loadConfig({ NODE_ENV: 'production', SECRET_KEY: KEY }).domainProofAllowHttp).toBe(false);
  });

  it('parses TRUST_PROXY as a flag, a hop count or a list', () => {
    expect(loadConfig({ SECRET_KEY: KEY, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ SECRET_KEY: KEY, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ SECRET_KEY: KEY, TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.0.0.2',
    ]);
  });
});
