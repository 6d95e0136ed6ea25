import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { shownDeliveryStatus } from '../modules/attempts/index.ts';
import { TEST_PUBLIC_URL, useTestApp } from '../test-support/app.ts';
import { createAttempt, readAttempt, waitForSend } from '../test-support/attempts.ts';
import { newSignup, TestClient } from '../test-support/client.ts';
import { jobsSettled, waitForCodeJobs } from '../test-support/jobs.ts';

type Received = { from: string; to: string[]; data: string };

let smtp: SMTPServer;
const received: Received[] = [];

// Registered before useTestApp: "after" hooks run in reverse order, so this one runs once the app (and its mailer)
// has closed.
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const t = useTestApp(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // A mailbox that does not exist: the server refuses it for good (550), as a real one would.
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('nobody-')) {
        const error: Error & { responseCode?: number } = new Error('No such user here');
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { env: { SMTP_URL: `smtp://127.0.0.1:${port}`, EMAIL_FROM: 'Veriform <hello@veriform.example>' } };
});

/** Quoted-printable soft line breaks and escapes, enough to read a link back out of the message source. */
function decodeQuotedPrintable(source: string): string {
  return source
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

describe('e-mail over SMTP', () => {
  it('sends the verification e-mail on sign-up, with the link built from PUBLIC_URL', async () => {
    const payload = newSignup();
    const c = new TestClient(t.app);
    await c.signup(payload);
    await jobsSettled(t.app);

    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message?.to).toEqual([payload.email]);
    expect(message?.from).toBe('hello@veriform.example');
    const source = decodeQuotedPrintable(message?.data ?? '');
    expect(source).toMatch(/^Subject: Verify your e-mail address for Veriform$/m);
    expect(source).toContain(`${TEST_PUBLIC_URL}/auth/verify-email/confirm/`);
    expect(source).toMatch(/Content-Type: text\/plain/);
    expect(source).toMatch(/Content-Type: text\/html/);

    // Nothing went to the development outbox.
    const outbox = await t.app.inject({
      method: 'GET',
      url: `/api/dev/outbox?to=${encodeURIComponent(payload.email)}`,
    });
    expect(outbox.json().results).toEqual([]);
  });

  it('builds links from PUBLIC_URL, never from the Host header', async () => {
    received.length = 0;
    const c = new TestClient(t.app);
    await c.fetchCsrf();
    await c.request({
      method: 'POST',
      url: '/api/auth/signup',
      body: newSignup(),
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    await jobsSettled(t.app);
    const source = decodeQuotedPrintable(received[0]?.data ?? '');
    expect(source).toContain(`${TEST_PUBLIC_URL}/auth/verify-email/confirm/`);
    expect(source).not.toContain('evil.example');
  });
});

describe('verification codes by e-mail over SMTP', () => {
  it('sends text and HTML in the form language and keeps the Message-ID as evidence', async () => {
    const attempt = await createAttempt(t.app, { method: 'email', language: 'es', company: 'Banco Sol' });
    await t.app.services.codeDelivery.enqueue({ attemptId: attempt.id, code: '305117' });

    const sent = await waitForSend(t.app, attempt.id);
    expect(sent.sendError).toBeNull();
    // (The owner's sign-up e-mail went through the same server.)
    const toConsumer = received.filter((m) => m.to.includes(attempt.email ?? ''));
    expect(toConsumer).toHaveLength(1);
    const source = decodeQuotedPrintable(toConsumer[0]?.data ?? '');
    expect(source).toMatch(/Content-Type: text\/plain/);
    expect(source).toMatch(/Content-Type: text\/html/);
    expect(source).toContain('Banco Sol es 305117.');
    // (Not anchored: the decoder above joins the encoded Subject's lines with the next header.)
    const messageId = source.match(/Message-ID: (<[^>]+>)/i)?.[1];
    expect(messageId).toBeDefined();
    expect(sent.providerMessageId).toBe(messageId);
    // Accepted by the mail server is all e-mail can tell (issue #18): `sent`, and never `unknown` later.
    expect(sent.deliveryStatus).toBe('sent');
    expect(shownDeliveryStatus(sent, new Date(t.clock.now().getTime() + 60 * 60 * 1000))).toBe('sent');
  });

  it('records a mailbox refused for good (550) and does not retry it', async () => {
    const attempt = await createAttempt(t.app, { method: 'email', email: 'nobody-here@example.com' });
    await t.app.services.codeDelivery.enqueue({ attemptId: attempt.id, code: '550550' });

    const [job] = await waitForCodeJobs(t.app, attempt.id);
    expect(job).toMatchObject({ state: 'completed', retryCount: 0, output: { outcome: 'rejected' } });
    const row = await readAttempt(t.app, attempt.id);
    expect(row.sendError).toMatch(/550/);
    expect(row.sentAt).toBeNull();
    expect({ status: row.deliveryStatus, errorCode: row.deliveryErrorCode }).toEqual({
      status: 'failed',
      errorCode: '550',
    });
  });
});
