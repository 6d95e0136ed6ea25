import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { buildTestApp, openTestDb, TEST_PUBLIC_URL, testConfig } from '../test-support/app.ts';
import { createAttempt, nextCellPhone, readAttempt, waitForSend } from '../test-support/attempts.ts';
import { codeJobsFor, waitForCodeJobs } from '../test-support/jobs.ts';
import { outboxFor } from '../test-support/outbox.ts';
import { TWILIO_ERRORS, TWILIO_TEST_CREDENTIALS } from '../test-support/twilio.ts';
import { useTwilioTestApp } from '../test-support/twilio-app.ts';
import { createSmsSender, SmsNotConfiguredError, SmsSendError } from './sms.ts';

const { t, twilio } = useTwilioTestApp();

const KEY = 'a-secret-key-that-is-long-enough-for-the-config';
const TWILIO_CONFIG = {
  accountSid: TWILIO_TEST_CREDENTIALS.accountSid,
  authToken: TWILIO_TEST_CREDENTIALS.authToken,
  from: TWILIO_TEST_CREDENTIALS.from,
};

const sentTo = (to: string) => twilio.received.filter((m) => m.to === to);

describe('SMS through Twilio (the adapter)', () => {
  it('posts the message with the account credentials and answers the message SID', async () => {
    expect(t.app.services.sms.transport).toBe('twilio');
    const to = nextCellPhone();
    const { providerMessageId } = await t.app.services.sms.send({ to, text: 'Hello' });

    expect(providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(sentTo(to)).toEqual([
      {
        to,
        from: TWILIO_TEST_CREDENTIALS.from,
        body: 'Hello',
        sid: providerMessageId,
        status: 201,
        statusCallback: `${TEST_PUBLIC_URL}/api/webhooks/twilio/status`,
      },
    ]);
  });

  it("classifies Twilio's refusals: invalid, landline or unsubscribed numbers are permanent", async () => {
    for (const answer of [TWILIO_ERRORS.invalidTo, TWILIO_ERRORS.notMobile, TWILIO_ERRORS.unsubscribed]) {
      const to = nextCellPhone();
      twilio.script(to, answer);
      const error = await t.app.services.sms.send({ to, text: 'x' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SmsSendError);
      expect(error).toMatchObject({ permanent: true, status: 400, code: answer.body.code });
    }
  });

  it('treats 429, 500 and network failures as transient', async () => {
    for (const answer of [TWILIO_ERRORS.tooManyRequests, TWILIO_ERRORS.serverError]) {
      const to = nextCellPhone();
      twilio.script(to, answer);
      const error = await t.app.services.sms.send({ to, text: 'x' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ permanent: false, status: answer.status });
    }
    const unreachable = createSmsSender(
      testConfig({ ...twilio.env(), TWILIO_API_URL: 'http://127.0.0.1:9' }),
      t.db.db,
      t.clock,
      t.app.log,
    );
    const error = await unreachable.send({ to: nextCellPhone(), text: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsSendError);
    expect(error).toMatchObject({ permanent: false, status: undefined });
  });

  it('reports wrong credentials as a 401 (retried: an operator can fix them while the code is valid)', async () => {
    const wrong = createSmsSender(
      testConfig({ ...twilio.env(), TWILIO_AUTH_TOKEN: 'not-the-token' }),
      t.db.db,
      t.clock,
      t.app.log,
    );
    const before = twilio.unauthorized;
    const error = await wrong.send({ to: nextCellPhone(), text: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ permanent: false, status: 401, code: 20003 });
    expect(twilio.unauthorized).toBe(before + 1);
  });

  it('falls back to the outbox in development and refuses to send in production without Twilio', async () => {
    const development = createSmsSender(testConfig(), t.db.db, t.clock, t.app.log);
    expect(development.transport).toBe('outbox');
    const to = nextCellPhone();
    const { providerMessageId } = await development.send({ to, text: 'dev' });
    const [message] = await outboxFor(t.app, to);
    expect(providerMessageId).toBe(`outbox:${message?.id}`);

    const warnings: string[] = [];
    const log = { ...t.app.log, warn: (message: string) => warnings.push(message) };
    const production = createSmsSender(testConfig({ NODE_ENV: 'production' }), t.db.db, t.clock, log);
    expect(production.transport).toBe('disabled');
    expect(warnings.join('\n')).toMatch(/TWILIO_.*not set/);
    await expect(production.send({ to, text: 'x' })).rejects.toBeInstanceOf(SmsNotConfiguredError);
  });
});

describe('TWILIO_API_URL', () => {
  it('points the client at a stand-in outside production, and is refused in production', () => {
    expect(
      loadConfig({ ...twilio.env(), TWILIO_API_URL: 'http://127.0.0.1:9999/', SECRET_KEY: KEY }).twilio,
    ).toEqual({
      ...TWILIO_CONFIG,
      apiUrl: 'http://127.0.0.1:9999',
    });
    expect(() =>
      loadConfig({
        ...twilio.env(),
        NODE_ENV: 'production',
        SECRET_KEY: KEY,
        PUBLIC_URL: 'https://v.example',
      }),
    ).toThrow(/TWILIO_API_URL is for tests and development only/);
    const { TWILIO_API_URL: _unused, ...production } = twilio.env();
    expect(loadConfig({ ...production, NODE_ENV: 'production', SECRET_KEY: KEY }).twilio).toEqual({
      ...TWILIO_CONFIG,
      apiUrl: undefined,
    });
  });
});

describe('sending verification codes by SMS (the job)', () => {
  it('sends the code once; the body ends with the WebOTP line; the job holds the code sealed', async () => {
    const attempt = await createAttempt(t.app, { method: 'sms', company: 'Acme Inc.' });
    await t.app.services.codeDelivery.enqueue({ attemptId: attempt.id, code: '739201' });

    // Stored before enqueue() resolved, with the code sealed.
    const [job] = await codeJobsFor(t.app, attempt.id);
    expect(job?.data).toMatchObject({ attemptId: attempt.id, sealedCode: expect.stringMatching(/^v1\./) });
    expect(JSON.stringify(job?.data)).not.toContain('739201');

    const sent = await waitForSend(t.app, attempt.id);
    const [message] = sentTo(attempt.cellPhone);
    expect(sentTo(attempt.cellPhone)).toHaveLength(1);
    expect(message?.from).toBe(TWILIO_TEST_CREDENTIALS.from);
    expect(message?.body).toBe(
      'Your Acme Inc. verification code is 739201. It expires in 10 minutes.\n\n@veriform.example #739201',
    );
    expect(message?.body.split('\n').at(-1)).toBe('@veriform.example #739201');
    expect(sent.providerMessageId).toBe(message?.sid);
    expect(sent.sentAt).toBeInstanceOf(Date);
    expect(sent.sendError).toBeNull();
  });

  it('retries a transient Twilio failure (500) and then sends once', async () => {
    const attempt = await createAttempt(t.app, { method: 'sms' });
    twilio.script(attempt.cellPhone, TWILIO_ERRORS.serverError);
    await t.app.services.codeDelivery.enqueue({ attemptId: attempt.id, code: '550123' });

    const sent = await waitForSend(t.app, attempt.id, { until: (row) => row.sentAt !== null });
    expect(sentTo(attempt.cellPhone).map((m) => m.status)).toEqual([500, 201]);
    expect(sent.providerMessageId).toBe(sentTo(attempt.cellPhone)[1]?.sid);
    // The error of the first try is cleared by the successful send.
    expect(sent.sendError).toBeNull();
    const [job] = await waitForCodeJobs(t.app, attempt.id);
    expect(job).toMatchObject({ state: 'completed', retryCount: 1 });
  });

  it('records a permanent refusal (21211) in send_error and does not retry it', async () => {
    const attempt = await createAttempt(t.app, { method: 'sms' });
    twilio.script(attempt.cellPhone, TWILIO_ERRORS.invalidTo);
    await t.app.services.codeDelivery.enqueue({ attemptId: attempt.id, code: '210211' });

    const [job] = await waitForCodeJobs(t.app, attempt.id);
    expect(job).toMatchObject({ state: 'completed', retryCount: 0, output: { outcome: 'rejected' } });
    const row = await readAttempt(t.app, attempt.id);
    expect(row.sendError).toMatch(/21211/);
    expect(row.sentAt).toBeNull();
    expect(row.providerMessageId).toBeNull();
    expect(sentTo(attempt.cellPhone)).toHaveLength(1);
  });

  it('sends nothing when the attempt was replaced before the job ran', async () => {
    const attempt = await createAttempt(t.app, { method: 'sms', status: 'replaced' });
    await t.app.services.codeDelivery.enqueue({ attemptId: attempt.id, code: '123456' });

    const [job] = await waitForCodeJobs(t.app, attempt.id);
    expect(job).toMatchObject({ state: 'completed', output: { outcome: 'skipped' } });
    expect(sentTo(attempt.cellPhone)).toEqual([]);
    expect((await readAttempt(t.app, attempt.id)).sentAt).toBeNull();
  });

  it('lets a send in progress finish when the app closes', async () => {
    // An app of its own on a database of its own: no other worker can take the job.
    const db = await openTestDb();
    try {
      const own = await buildTestApp(db, { env: twilio.env() });
      const attempt = await createAttempt(own.app, { method: 'sms' });
      twilio.hold(attempt.cellPhone, 600);
      await own.app.services.codeDelivery.enqueue({ attemptId: attempt.id, code: '246810' });
      await waitForCodeJobs(own.app, attempt.id, { until: (jobs) => jobs[0]?.state === 'active' });

      await own.app.close();

      // close() returned only after the send finished and pg-boss recorded it (the database is still open).
      expect(sentTo(attempt.cellPhone).map((m) => m.status)).toEqual([201]);
      expect((await readAttempt(own.app, attempt.id)).sentAt).toBeInstanceOf(Date);
      expect(await codeJobsFor(own.app, attempt.id)).toMatchObject([{ state: 'completed', retryCount: 0 }]);
    } finally {
      await db.close();
    }
  });

  it('processes each job once when two apps (processes) share the database', async () => {
    const other = await buildTestApp(t.db, { env: twilio.env() });
    try {
      const first = await createAttempt(t.app, { method: 'sms' });
      const attempts = [first];
      for (let i = 1; i < 12; i += 1) attempts.push(await createAttempt(t.app, { sameFormAs: first }));
      await Promise.all(
        attempts.map((attempt, i) =>
          (i % 2 === 0 ? t.app : other.app).services.codeDelivery.enqueue({
            attemptId: attempt.id,
            code: String(100000 + i),
          }),
        ),
      );
      for (const attempt of attempts) await waitForCodeJobs(t.app, attempt.id);
      for (const [i, attempt] of attempts.entries()) {
        expect(sentTo(attempt.cellPhone).map((m) => m.body.split('\n').at(-1))).toEqual([
          `@veriform.example #${100000 + i}`,
        ]);
        expect((await readAttempt(t.app, attempt.id)).sentAt).toBeInstanceOf(Date);
      }
    } finally {
      await other.app.close();
    }
  });
});
