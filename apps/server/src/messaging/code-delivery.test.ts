import type { SendCodeResponse } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-support/app.ts';
import { createAttempt, readAttempt, waitForSend } from '../test-support/attempts.ts';
import { waitForCodeJobs } from '../test-support/jobs.ts';
import { outboxFor } from '../test-support/outbox.ts';
import { createPublicForm, newCellPhone, newConsumer } from '../test-support/public-verify.ts';
import { newOwner } from '../test-support/teams.ts';

const t = useTestApp();

describe('verification code delivery (development outbox)', () => {
  it('sends the SMS in the form language, the WebOTP line last', async () => {
    const attempt = await createAttempt(t.app, { method: 'sms', language: 'es', company: 'Banco Sol' });
    await t.app.services.codeDelivery.enqueue({ attemptId: attempt.id, code: '482913' });

    const sent = await waitForSend(t.app, attempt.id);
    expect(sent.sendError).toBeNull();
    expect(sent.sentAt).toBeInstanceOf(Date);
    const [message] = await outboxFor(t.app, attempt.cellPhone);
    expect(message?.channel).toBe('sms');
    expect(message?.subject).toBeNull();
    expect(sent.providerMessageId).toBe(`outbox:${message?.id}`);
    expect(message?.text).toBe(
      'Su código de verificación de Banco Sol es 482913. Vence en 10 minutos.\n\n@veriform.example #482913',
    );
  });

  it('sends the e-mail through the mailer', async () => {
    const attempt = await createAttempt(t.app, { method: 'email', company: 'Acme Inc.' });
    await t.app.services.codeDelivery.enqueue({ attemptId: attempt.id, code: '000417' });

    const sent = await waitForSend(t.app, attempt.id);
    expect(sent.sendError).toBeNull();
    const [message] = await outboxFor(t.app, attempt.email ?? '');
    expect(message?.channel).toBe('email');
    expect(message?.subject).toBe('Your Acme Inc. verification code');
    expect(message?.text).toContain('Your Acme Inc. verification code is 000417.');
    expect(await outboxFor(t.app, attempt.cellPhone)).toEqual([]);
  });

  it('keeps the form name (customer text) out of the subject: it names the company and "verification code"', async () => {
    const owner = await newOwner(t.app, 'Acme Inc.');
    const phishing = 'URGENT: your bank account is locked, call +1 415 555 0100';
    const form = await createPublicForm(owner, { name: phishing });
    const consumer = await newConsumer(t.app, form.publicId);
    const email = `consumer-${Date.now()}@example.com`;
    const sent = await consumer.sendCode(form.publicId, {
      cellPhone: newCellPhone().typed,
      method: 'email',
      email,
    });
    expect(sent.statusCode).toBe(201);
    await waitForSend(t.app, sent.json<SendCodeResponse>().attemptId);
    const [message] = await outboxFor(t.app, email);
    expect(message?.subject).toBe('Your Acme Inc. verification code');
    expect(`${message?.subject}\n${message?.text}`).not.toContain('URGENT');
  });

  it('sends nothing for an attempt that was replaced or has expired', async () => {
    const replaced = await createAttempt(t.app, { status: 'replaced' });
    const expired = await createAttempt(t.app, { expiresAt: new Date(t.clock.now().getTime() - 1000) });
    await t.app.services.codeDelivery.enqueue({ attemptId: replaced.id, code: '111111' });
    await t.app.services.codeDelivery.enqueue({ attemptId: expired.id, code: '222222' });

    for (const attempt of [replaced, expired]) {
      const [job] = await waitForCodeJobs(t.app, attempt.id);
      expect(job).toMatchObject({ state: 'completed', output: { outcome: 'skipped' } });
      expect(await outboxFor(t.app, attempt.cellPhone)).toEqual([]);
      const row = await readAttempt(t.app, attempt.id);
      expect(row.sentAt).toBeNull();
    }
  });
});
