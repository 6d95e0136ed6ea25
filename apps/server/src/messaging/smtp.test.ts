import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PUBLIC_URL, useTestApp } from '../test-support/app.ts';
import { newSignup, TestClient } from '../test-support/client.ts';

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
    await t.app.services.background.idle();

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
    await t.app.services.background.idle();
    const source = decodeQuotedPrintable(received[0]?.data ?? '');
    expect(source).toContain(`${TEST_PUBLIC_URL}/auth/verify-email/confirm/`);
    expect(source).not.toContain('evil.example');
  });
});
