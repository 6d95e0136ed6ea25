import * as Sentry from '@sentry/node';
import { CLIENT_CONFIG_ELEMENT_ID, type ClientConfig, clientConfigSchema } from '@veriform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, openTestDb, useTestApp } from '../test-support/app.ts';
import { type SentryStandIn, startSentryStandIn } from '../test-support/sentry.ts';
import { newOwner } from '../test-support/teams.ts';
import { flushErrorReports, initErrorReporting, reportableUrl, scrubSpan } from './error-reporting.ts';

/**
 * Error reporting with SENTRY_DSN set: the real Sentry SDK, initialised as server.ts does, sends to a local stand-in of
 * Sentry's ingestion endpoint over HTTP. The 500s are real faults: a table the route reads is renamed away.
 */

let sentry: SentryStandIn;
beforeAll(async () => {
  sentry = await startSentryStandIn();
});
const t = useTestApp(() => ({ env: { SENTRY_DSN: sentry.dsn } }));
beforeAll(async () => {
  expect(await initErrorReporting(t.config)).toBe(true);
});
afterAll(async () => {
  await Sentry.close(2_000);
  await sentry.close();
});

async function eventsAfterFlush() {
  await flushErrorReports();
  return sentry.errorEvents();
}

/** Runs `action` while the verify_forms table is missing: every query of it fails inside the route. */
async function withFormsTableMissing<T>(action: () => Promise<T>): Promise<T> {
  await t.db.executeSql('ALTER TABLE verify_forms RENAME TO verify_forms_away');
  try {
    return await action();
  } finally {
    await t.db.executeSql('ALTER TABLE verify_forms_away RENAME TO verify_forms');
  }
}

function clientConfigIn(html: string): ClientConfig {
  const match = new RegExp(
    `<script id="${CLIENT_CONFIG_ELEMENT_ID}" type="application/json">(.*?)</script>`,
  ).exec(html);
  if (!match?.[1]) throw new Error('the page has no client-config element');
  return clientConfigSchema.parse(JSON.parse(match[1]));
}

describe('with SENTRY_DSN', () => {
  it('reports a 500 once, tied to its request id and route, and sends no cookie, token, address or query', async () => {
    const owner = await newOwner(t.app);
    const before = (await eventsAfterFlush()).length;
    const response = await withFormsTableMissing(() =>
      owner.c.get(`/api/verify-forms?account=${owner.accountId}&q=private-search-words`),
    );
    expect(response.statusCode).toBe(500);
    // The answer is the spec's, whatever the reporter does.
    expect(response.json()).toEqual({
      detail:
        'An unexpected server error occurred. Please try again. If the issue continues please contact support.',
      MainCode_: 'server_error',
    });

    const events = (await eventsAfterFlush()).slice(before);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.tags).toMatchObject({
      requestId: response.headers['x-request-id'],
      route: '/api/verify-forms',
      method: 'GET',
    });
    expect(event?.environment).toBe('test');
    expect(event?.exception?.values?.at(-1)?.value).toMatch(/verify_forms/);

    const raw = sentry.received.map((envelope) => envelope.raw).join('\n');
    for (const secret of [...owner.c.cookies.values(), owner.c.csrfToken ?? 'no token', owner.email]) {
      expect(raw).not.toContain(secret);
    }
    expect(raw).not.toContain('private-search-words');
    expect(raw).not.toContain(owner.c.ip);
  });

  it('does not report what the caller got wrong: 400, 401, 403, 404', async () => {
    const owner = await newOwner(t.app);
    const before = (await eventsAfterFlush()).length;
    const answers = await Promise.all([
      owner.c.post('/api/verify-forms', { name: '', account: owner.accountId }),
      t.app.inject({ method: 'GET', url: `/api/verify-forms?account=${owner.accountId}` }),
      owner.c.post('/api/verify-forms', { name: 'x', account: owner.accountId }, { csrf: false }),
      owner.c.get('/api/verify-forms/999999999'),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([400, 401, 403, 404]);
    expect((await eventsAfterFlush()).length).toBe(before);
  });

  it('tells the pages where to report, and their policy lets them send there', async () => {
    for (const url of ['/auth/login/', '/f/unknown-form']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(clientConfigIn(response.body)).toEqual({
        errorReporting: { dsn: sentry.dsn, environment: 'test' },
      });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain(`connect-src 'self' ${sentry.origin}`);
      expect(csp).toContain("worker-src 'self' blob:");
    }
  });
});

describe('without SENTRY_DSN', () => {
  it('pages are told not to report, and may connect to their own origin only', async () => {
    const db = await openTestDb();
    const { app } = await buildTestApp(db);
    try {
      const response = await app.inject({ method: 'GET', url: '/auth/login/' });
      expect(clientConfigIn(response.body)).toEqual({ errorReporting: null });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("connect-src 'self';");
      expect(csp).not.toContain('worker-src');
    } finally {
      await app.close();
      await db.close();
    }
  });
});

describe('what traces may carry', () => {
  it('URLs lose their query and token links their secret', () => {
    expect(reportableUrl('/f/abc123?ref=CRM-private')).toBe('/f/abc123');
    expect(reportableUrl('/auth/reset-password/confirm/MTI/secret-token/')).toBe(
      '/auth/reset-password/confirm/MTI/[redacted]/',
    );
    expect(reportableUrl('/follow-invitation/?key=invitation-key')).toBe('/follow-invitation/');
  });

  it('spans keep their statement and timings, lose query strings and secrets in URL attributes', () => {
    const span = scrubSpan({
      trace_id: 't',
      span_id: 's',
      name: 'GET /api/verifications?q=5550123',
      start_timestamp: 1,
      end_timestamp: 2,
      status: 'ok',
      is_segment: true,
      attributes: {
        'url.full': 'http://localhost/follow-invitation/?key=invitation-key',
        'url.query': '?key=invitation-key',
        'http.target': { value: '/auth/verify-email/confirm/MTI/secret-token/?x=1', type: 'string' },
        'db.query.text': 'select 1 from verifications where cell_phone = $1',
        'http.response.status_code': 200,
      },
    });
    expect(span.name).toBe('GET /api/verifications');
    expect(span.attributes).toEqual({
      'url.full': 'http://localhost/follow-invitation/',
      'http.target': '/auth/verify-email/confirm/MTI/[redacted]/',
      'db.query.text': 'select 1 from verifications where cell_phone = $1',
      'http.response.status_code': 200,
    });
  });
});
