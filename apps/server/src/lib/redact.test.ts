import { describe, expect, it } from 'vitest';
import { buildTestApp, openTestDb } from '../test-support/app.ts';
import { TestClient } from '../test-support/client.ts';
import { redactUrl, serializeLoggedError } from './redact.ts';

describe('redactUrl', () => {
  it.each([
    ['/auth/verify-email/confirm/MQ/abc-def/', '/auth/verify-email/confirm/MQ/[redacted]/'],
    ['/auth/change-email/cancel/MQ/abc-def/', '/auth/change-email/cancel/MQ/[redacted]/'],
    ['/auth/reset-password/confirm/MQ/abc-def', '/auth/reset-password/confirm/MQ/[redacted]'],
    // The web router matches paths whatever their letter case: so does the redaction.
    ['/Auth/Change-Email/Confirm/MQ/abc-def/?x=1', '/Auth/Change-Email/Confirm/MQ/[redacted]/?x=[redacted]'],
    ['/follow-invitation/?key=secret', '/follow-invitation/?key=[redacted]'],
    [
      '/auth/login/from-invitation?a=1&KEY=secret&b=2',
      '/auth/login/from-invitation?a=[redacted]&KEY=[redacted]&b=[redacted]',
    ],
    ['/follow-invitation/?%6Bey=secret', '/follow-invitation/?%6Bey=[redacted]'],
    ['/follow-invitation/?key', '/follow-invitation/?key=[redacted]'],
    // Search words, addresses, references and secrets, whatever the parameter is called.
    [
      '/api/verifications?account=3&q=%2B14155550142&pageSize=25&o=-created',
      '/api/verifications?account=3&q=[redacted]&pageSize=25&o=-created',
    ],
    [
      '/x?email=ann%40example.com&toEmail=bob@example.com&to=c@example.com&externalRefId=R-1&ref=R-2&token=t',
      '/x?email=[redacted]&toEmail=[redacted]&to=[redacted]&externalRefId=[redacted]&ref=[redacted]&token=[redacted]',
    ],
    ['/activity-log/?Q=ann&%71=bob', '/activity-log/?Q=[redacted]&%71=[redacted]'],
    // A name that is itself data (or cannot be decoded) is not kept either.
    ['/x?%2B14155550142', '/x?[redacted]=[redacted]'],
    ['/x?ann@example.com=1', '/x?[redacted]=[redacted]'],
    ['/x?%E0%A4%A=1', '/x?[redacted]=[redacted]'],
    // The app's own filters stay readable.
    [
      '/api/verifications/report?account=1&created__date__preset=custom&created__date__gte=2026-01-01&tz=Europe%2FParis&verifyFormId__in=4,5&verificationMethod__in=sms',
      '/api/verifications/report?account=1&created__date__preset=custom&created__date__gte=2026-01-01&tz=Europe%2FParis&verifyFormId__in=4,5&verificationMethod__in=sms',
    ],
    // The public page's query is the customer's: none of it is kept.
    ['/f/abc123?ref=CRM-4471&utm_source=mail', '/f/abc123?[redacted]'],
    ['http://veriform.example/f/abc123?ref=CRM-4471', 'http://veriform.example/f/abc123?[redacted]'],
    ['/x?', '/x?'],
    ['/plain/path', '/plain/path'],
  ])('%s → %s', (input, output) => {
    expect(redactUrl(input)).toBe(output);
  });
});

describe('serializeLoggedError', () => {
  it("keeps a failed query's statement and cause, not its values", () => {
    const cause = new Error('duplicate key value violates unique constraint "users_email_key"');
    const error = Object.assign(
      new Error('Failed query: select * from users where email = $1\nparams: ann@example.com,+14155550142'),
      { query: 'select * from users where email = $1', params: ['ann@example.com', '+14155550142'], cause },
    );
    const serialized = serializeLoggedError(error);
    const text = JSON.stringify(serialized);
    expect(text).not.toContain('ann@example.com');
    expect(text).not.toContain('4155550142');
    expect(serialized).toMatchObject({
      message: `Failed query: select * from users where email = $1\nparams: [redacted]: ${cause.message}`,
      query: 'select * from users where email = $1',
      params: '[redacted]',
    });
    expect((serialized as { stack: string }).stack).toMatch(
      /^Error: Failed query: [^\n]+\nparams: \[redacted\]\n\s+at /,
    );
  });

  it("drops the values PostgreSQL's detail quotes", () => {
    const error = Object.assign(new Error('duplicate key'), {
      detail: 'Key (email)=(ann@example.com) already exists.',
    });
    expect(serializeLoggedError(error)).toMatchObject({ detail: 'Key (email)=([redacted]) already exists.' });
  });
});

type LogLine = { msg?: string; req?: { url?: string }; err?: { message?: string } };

describe('the request log (real pino lines of real requests)', () => {
  it('carries no phone number, address, reference, search word or secret from a URL', async () => {
    const lines: LogLine[] = [];
    const raw: string[] = [];
    const db = await openTestDb();
    const { app } = await buildTestApp(db, {
      config: { logLevel: 'info' },
      logStream: {
        write: (line: string) => {
          raw.push(line);
          lines.push(JSON.parse(line) as LogLine);
        },
      },
    });
    try {
      const urls: [string, string][] = [
        [
          '/api/verifications?account=1&q=%2B14155550142&pageSize=25',
          '/api/verifications?account=1&q=[redacted]&pageSize=25',
        ],
        ['/activity-log/?q=ann%40example.com&o=-created', '/activity-log/?q=[redacted]&o=-created'],
        ['/f/abc123?ref=CRM-4471&lang=es', '/f/abc123?[redacted]'],
        ['/api/dev/outbox?to=bob%40example.com', '/api/dev/outbox?to=[redacted]'],
        ['/follow-invitation/?key=invitation-secret', '/follow-invitation/?key=[redacted]'],
        [
          '/settings/?email=carol@example.com&externalRefId=EXT-99',
          '/settings/?email=[redacted]&externalRefId=[redacted]',
        ],
      ];
      for (const [url] of urls) await app.inject({ method: 'GET', url });
      const logged = lines.filter((line) => line.msg === 'incoming request').map((line) => line.req?.url);
      expect(logged).toEqual(urls.map(([, redacted]) => redacted));
      const all = raw.join('');
      for (const secret of ['4155550142', 'example.com', 'CRM-4471', 'invitation-secret', 'EXT-99'])
        expect(all).not.toContain(secret);
    } finally {
      await app.close();
      await db.close();
    }
  });

  it("a 5xx logs its error without the failed query's values", async () => {
    const raw: string[] = [];
    const lines: LogLine[] = [];
    const db = await openTestDb();
    const { app } = await buildTestApp(db, {
      config: { logLevel: 'info' },
      logStream: {
        write: (line: string) => {
          raw.push(line);
          lines.push(JSON.parse(line) as LogLine);
        },
      },
    });
    try {
      const client = new TestClient(app);
      await client.fetchCsrf();
      // A real failed query: the login's look-up of the address meets a column that is not there.
      await db.executeSql('ALTER TABLE users RENAME COLUMN password_hash TO password_hash_gone');
      const response = await client.post('/api/auth/login', {
        email: 'dora.private@example.org',
        password: 'Correct-horse-9',
      });
      expect(response.statusCode).toBe(500);
      const failed = lines.find((line) => line.msg === 'request failed');
      expect(failed?.err?.message).toContain('params: [redacted]');
      expect(raw.join('')).not.toContain('dora.private');
    } finally {
      await app.close();
      await db.close();
    }
  });
});
