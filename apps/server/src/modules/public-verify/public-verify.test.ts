import {
  CODE_TTL_SECONDS,
  type PublicVerifyForm,
  publicVerifyTexts,
  type SendCodeResponse,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { ipKey } from '../../lib/ip-key.ts';
import { useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { lastOutboxIdTo, latestCodeMessageTo, latestCodeTo } from '../../test-support/codes.ts';
import { outboxFor } from '../../test-support/outbox.ts';
import {
  type Consumer,
  createPublicForm,
  newCellPhone,
  newConsumer,
  verifyPhone,
} from '../../test-support/public-verify.ts';
import { join, newOwner, nextIp } from '../../test-support/teams.ts';
import { hashCode } from '../attempts/index.ts';

const t = useTestApp();
const en = publicVerifyTexts.en;
const es = publicVerifyTexts.es;
const notFound = { detail: 'Not found.', MainCode_: 'not_found' };
const fieldError = (field: string, message: string) => ({
  [field]: [message],
  MainCode_: 'validation_error',
});

const attemptRow = async (id: string) => {
  const [row] = await t.db.db
    .select()
    .from(schema.verificationAttempts)
    .where(eq(schema.verificationAttempts.id, id));
  if (!row) throw new Error(`no attempt ${id}`);
  return row;
};

const verificationsOf = (formId: number) =>
  t.db.db.select().from(schema.verifications).where(eq(schema.verifications.verifyFormId, formId));

async function liveForm(options: Parameters<typeof createPublicForm>[1] = {}) {
  const owner = await newOwner(t.app, 'Acme Lending');
  return { owner, form: await createPublicForm(owner, options) };
}

/** Asks for a code by SMS for a fresh number; answers the attempt and the code the consumer received. */
async function sendFresh(consumer: Consumer, publicId: string, phone = newCellPhone()) {
  const response = await consumer.sendCode(publicId, { cellPhone: phone.typed, method: 'sms' });
  expect(response.statusCode, response.body).toBe(201);
  const sent = response.json<SendCodeResponse>();
  return { sent, phone, code: await latestCodeTo(t.app, phone.e164) };
}

/** A 6-digit code that is not `code`. */
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('GET /api/public/verify-forms/{publicId}', () => {
  it('answers a live form: name, company, language, banner; not a preview', async () => {
    const { form } = await liveForm({ name: 'Auto loan', language: 'es' });
    const response = await new TestClient(t.app).get(`/api/public/verify-forms/${form.publicId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json<PublicVerifyForm>()).toEqual({
      publicId: form.publicId,
      name: 'Auto loan',
      company: 'Acme Lending',
      companyDomain: null,
      language: 'es',
      bannerImage: null,
      preview: false,
      consent: null,
      pageViewId: expect.stringMatching(/^pv_[\w-]{22}$/),
    });
    expect(response.headers['cache-control']).toBe('private, no-cache');
  });

  it('carries the banner URL', async () => {
    const { form } = await liveForm();
    await t.db.db
      .update(schema.verifyForms)
      .set({ bannerImage: '/media/abc.webp' })
      .where(eq(schema.verifyForms.id, form.id));
    const response = await new TestClient(t.app).get(`/api/public/verify-forms/${form.publicId}`);
    expect(response.json<PublicVerifyForm>().bannerImage).toBe('/media/abc.webp');
  });

  it.each(['AAAAAAAAAAAAAAAA', 'short', 'x'.repeat(90), '%2E%2E', 'AAAAAAAAAAAAAAA%00'])(
    'answers 404 for an unknown or malformed id (%s)',
    async (publicId) => {
      const response = await new TestClient(t.app).get(`/api/public/verify-forms/${publicId}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    },
  );

  it('answers 404 for an inactive form to anyone but a member of its account, who gets a preview', async () => {
    const { owner, form } = await liveForm({ isLive: false });
    const url = `/api/public/verify-forms/${form.publicId}`;
    expect((await new TestClient(t.app).get(url)).json()).toEqual(notFound);

    const asOwner = await owner.c.get(url);
    expect(asOwner.statusCode).toBe(200);
    expect(asOwner.json<PublicVerifyForm>()).toMatchObject({ publicId: form.publicId, preview: true });

    const member = await join(t.app, owner);
    expect((await member.c.get(url)).json<PublicVerifyForm>().preview).toBe(true);

    const stranger = await newOwner(t.app, 'Other Co');
    expect((await stranger.c.get(url)).statusCode).toBe(404);
  });

  it('a member sees a live form as live (no preview), and a preview never sends', async () => {
    const { owner, form } = await liveForm({ isLive: false });
    const sent = await owner.c.post(`/api/public/verify-forms/${form.publicId}/send-code`, {
      cellPhone: newCellPhone().typed,
      method: 'sms',
    });
    expect(sent.statusCode).toBe(404);
    expect(sent.json()).toEqual(notFound);

    await owner.c.patch(`/api/verify-forms/${form.id}`, { isLive: true });
    const live = await owner.c.get(`/api/public/verify-forms/${form.publicId}`);
    expect(live.json<PublicVerifyForm>().preview).toBe(false);
  });
});

describe('POST /api/public/verify-forms/{publicId}/send-code', () => {
  it('stores a pending attempt (E.164, hashed code, evidence) and sends the code by SMS', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const phone = newCellPhone();
    const before = t.clock.now();
    const userAgent = `Mozilla/5.0 ${'x'.repeat(600)}`;
    const response = await consumer.request({
      method: 'POST',
      url: `/api/public/verify-forms/${form.publicId}/send-code`,
      body: { cellPhone: ` ${phone.typed} `, method: 'sms', externalRefId: ' CRM-123 ' },
      headers: { 'user-agent': userAgent },
    });
    expect(response.statusCode, response.body).toBe(201);
    const sent = response.json<SendCodeResponse>();
    const last4 = phone.e164.slice(-4);
    expect(sent).toEqual({
      attemptId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      resendAfterSeconds: 30,
      expiresAt: new Date(before.getTime() + CODE_TTL_SECONDS * 1000).toISOString(),
      sentTo: `+1 ••• ••• ${last4}`,
      cellPhone: `+1 415 ${phone.e164.slice(5, 8)} ${last4}`,
    });

    const code = await latestCodeTo(t.app, phone.e164);
    const row = await attemptRow(sent.attemptId);
    expect(row).toMatchObject({
      verifyFormId: form.id,
      accountId: form.account,
      cellPhone: phone.e164,
      method: 'sms',
      email: null,
      externalRefId: 'CRM-123',
      status: 'pending',
      isTest: false,
      wrongTries: 0,
      ip: consumer.ip,
      userAgent: userAgent.slice(0, 512),
      verificationId: null,
    });
    expect(row.createdAt.getTime()).toBe(before.getTime());
    // Only an HMAC bound to the attempt is kept.
    expect(row.codeHash).not.toContain(code);
    expect(row.codeHash).toBe(hashCode(t.config.secretKey, sent.attemptId, code));
    // The message is in the form's language, with the WebOTP line last.
    const { message } = await latestCodeMessageTo(t.app, phone.e164);
    expect(message.channel).toBe('sms');
    expect(message.text).toBe(
      `${en.smsText('Acme Lending', code)}\n\n@${new URL(t.config.publicUrl).hostname} #${code}`,
    );
  });

  it('accepts the number in other spellings and keeps one E.164 form', async () => {
    const { owner, form } = await liveForm();
    // A UK mobile: the account must allow the country first (toll-fraud.test.ts).
    await owner.c.patch(`/api/accounts/${owner.accountId}`, { phoneCountries: ['US', 'GB'] });
    const consumer = await newConsumer(t.app, form.publicId);
    const response = await consumer.sendCode(form.publicId, { cellPhone: '+44 7400 123456', method: 'sms' });
    expect(response.statusCode).toBe(201);
    expect(response.json<SendCodeResponse>()).toMatchObject({
      sentTo: '+44 •••• ••3456',
      cellPhone: '+44 7400 123456',
    });
    expect((await attemptRow(response.json<SendCodeResponse>().attemptId)).cellPhone).toBe('+447400123456');
  });

  it('sends by e-mail when asked, to a masked address', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const email = `jane.doe.${Date.now()}@example.com`;
    const response = await consumer.sendCode(form.publicId, {
      cellPhone: newCellPhone().typed,
      method: 'email',
      email,
    });
    expect(response.statusCode, response.body).toBe(201);
    const sent = response.json<SendCodeResponse>();
    expect(sent.sentTo).toBe('j•••@example.com');
    const { code, message } = await latestCodeMessageTo(t.app, email);
    expect(message.channel).toBe('email');
    expect(message.subject).toBe(en.emailSubject('Acme Lending'));
    expect(await attemptRow(sent.attemptId)).toMatchObject({ method: 'email', email });
    expect((await consumer.check(sent.attemptId, code)).statusCode).toBe(200);
  });

  const invalidBodies: [string, unknown, Record<string, string[]>][] = [
    [
      'a number that is too short',
      { cellPhone: '12345', method: 'sms' },
      { cellPhone: [en.cellPhoneInvalid] },
    ],
    ['letters', { cellPhone: 'call me', method: 'sms' }, { cellPhone: [en.cellPhoneInvalid] }],
    [
      'a UK landline',
      { cellPhone: '+44 20 7946 0018', method: 'sms' },
      { cellPhone: [en.cellPhoneLandline] },
    ],
    [
      'a French landline',
      { cellPhone: '+33 1 23 45 67 89', method: 'sms' },
      { cellPhone: [en.cellPhoneLandline] },
    ],
    ['no number', { method: 'sms' }, { cellPhone: [en.cellPhoneRequired] }],
    ['a blank number', { cellPhone: '   ', method: 'sms' }, { cellPhone: [en.cellPhoneRequired] }],
    ['a number as a number', { cellPhone: 2015550123, method: 'sms' }, { cellPhone: [en.cellPhoneInvalid] }],
    ['a too long number', { cellPhone: '1'.repeat(41), method: 'sms' }, { cellPhone: [en.cellPhoneInvalid] }],
    ['another method', { cellPhone: '(415) 555-0100', method: 'fax' }, { method: [en.methodInvalid] }],
    ['no method', { cellPhone: '(415) 555-0100' }, { method: [en.methodInvalid] }],
    [
      'e-mail without an address',
      { cellPhone: '(415) 555-0100', method: 'email' },
      { email: [en.emailRequired] },
    ],
    [
      'e-mail with a blank address',
      { cellPhone: '(415) 555-0100', method: 'email', email: '  ' },
      { email: [en.emailRequired] },
    ],
    [
      'e-mail with a bad address',
      { cellPhone: '(415) 555-0100', method: 'email', email: 'jane@' },
      { email: [en.emailInvalid] },
    ],
    [
      'an address that is not a string',
      { cellPhone: '(415) 555-0100', method: 'email', email: 42 },
      { email: [en.emailInvalid] },
    ],
    [
      'a too long reference',
      { cellPhone: '(415) 555-0100', method: 'sms', externalRefId: 'r'.repeat(201) },
      { externalRefId: [en.externalRefIdInvalid] },
    ],
    [
      'a bad number and a bad address together',
      { cellPhone: 'nope', method: 'email', email: 'nope' },
      { cellPhone: [en.cellPhoneInvalid], email: [en.emailInvalid] },
    ],
    ['a body that is not an object', ['(415) 555-0100'], { nonFieldErrors: [en.requestInvalid] }],
  ];

  it.each(invalidBodies)('refuses %s with a 400 in the form language', async (_name, body, errors) => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const response = await consumer.sendCode(form.publicId, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ ...errors, MainCode_: 'validation_error' });
    const attempts = await t.db.db
      .select()
      .from(schema.verificationAttempts)
      .where(eq(schema.verificationAttempts.verifyFormId, form.id));
    expect(attempts).toEqual([]);
  });

  it('answers every field error of a Spanish form in Spanish', async () => {
    const { form } = await liveForm({ language: 'es' });
    const consumer = await newConsumer(t.app, form.publicId);
    const cases: [unknown, Record<string, string[]>][] = [
      [{ method: 'sms' }, { cellPhone: [es.cellPhoneRequired] }],
      [{ cellPhone: '12', method: 'sms' }, { cellPhone: [es.cellPhoneInvalid] }],
      [{ cellPhone: '+44 20 7946 0018', method: 'sms' }, { cellPhone: [es.cellPhoneLandline] }],
      [
        { cellPhone: 12, method: 7 },
        { cellPhone: [es.cellPhoneInvalid], method: [es.methodInvalid] },
      ],
      [{ cellPhone: '(415) 555-0100', method: 'email' }, { email: [es.emailRequired] }],
      [{ cellPhone: '(415) 555-0100', method: 'email', email: 'x@' }, { email: [es.emailInvalid] }],
      [
        { cellPhone: '(415) 555-0100', method: 'sms', externalRefId: 5 },
        { externalRefId: [es.externalRefIdInvalid] },
      ],
      ['hola', { nonFieldErrors: [es.requestInvalid] }],
    ];
    for (const [body, errors] of cases) {
      const response = await consumer.sendCode(form.publicId, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ ...errors, MainCode_: 'validation_error' });
    }
  });

  it('sends a Spanish form its code in Spanish', async () => {
    const { form } = await liveForm({ language: 'es' });
    const consumer = await newConsumer(t.app, form.publicId);
    const { phone, code } = await sendFresh(consumer, form.publicId);
    const { message } = await latestCodeMessageTo(t.app, phone.e164);
    expect(message.text.startsWith(es.smsText('Acme Lending', code))).toBe(true);
  });

  it('needs the CSRF token like every unsafe call', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    consumer.csrfToken = null;
    const response = await consumer.sendCode(form.publicId, {
      cellPhone: newCellPhone().typed,
      method: 'sms',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ MainCode_: 'csrf_failed' });
  });

  it('answers 404 for an unknown, malformed or inactive form', async () => {
    const { owner, form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const body = { cellPhone: newCellPhone().typed, method: 'sms' };
    for (const publicId of ['AAAAAAAAAAAAAAAA', 'bad']) {
      const response = await consumer.sendCode(publicId, body);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    await owner.c.patch(`/api/verify-forms/${form.id}`, { isLive: false });
    expect((await consumer.sendCode(form.publicId, body)).statusCode).toBe(404);
  });

  it('refuses a new code within 30 seconds, then replaces the old one', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const first = await sendFresh(consumer, form.publicId);

    t.clock.advance(10_000);
    const tooSoon = await consumer.sendCode(form.publicId, { cellPhone: first.phone.typed, method: 'sms' });
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json()).toEqual({ detail: en.resendTooSoon(20), MainCode_: 'rate_limited' });
    expect(tooSoon.json<{ detail: string }>().detail).toBe(
      'Please wait 20 seconds before asking for a new code.',
    );
    expect(tooSoon.headers['retry-after']).toBe('20');

    t.clock.advance(20_000);
    const afterId = await lastOutboxIdTo(t.app, first.phone.e164);
    const again = await consumer.sendCode(form.publicId, { cellPhone: first.phone.typed, method: 'sms' });
    expect(again.statusCode).toBe(201);
    const second = again.json<SendCodeResponse>();
    const secondCode = await latestCodeTo(t.app, first.phone.e164, { afterId });

    expect((await attemptRow(first.sent.attemptId)).status).toBe('replaced');
    const old = await consumer.check(first.sent.attemptId, first.code);
    expect(old.statusCode).toBe(400);
    expect(old.json()).toEqual(fieldError('code', en.codeReplaced));

    expect((await consumer.check(second.attemptId, secondCode)).statusCode).toBe(200);
  });

  it('sends one code for a burst of requests for the same number', async () => {
    const { form } = await liveForm();
    const phone = newCellPhone();
    const consumers = await Promise.all(Array.from({ length: 4 }, () => newConsumer(t.app, form.publicId)));
    const answers = await Promise.all(
      consumers.map((c) => c.sendCode(form.publicId, { cellPhone: phone.typed, method: 'sms' })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 429, 429, 429]);
    await latestCodeTo(t.app, phone.e164);
    expect(await outboxFor(t.app, phone.e164)).toHaveLength(1);
    const attempts = await t.db.db
      .select()
      .from(schema.verificationAttempts)
      .where(eq(schema.verificationAttempts.cellPhone, phone.e164));
    expect(attempts.map((a) => a.status)).toEqual(['pending']);
  });

  it('spaces codes per form: the same number may get a code from another form at once', async () => {
    const { owner, form } = await liveForm();
    const other = await createPublicForm(owner, { name: 'Second' });
    const consumer = await newConsumer(t.app, form.publicId);
    const { phone } = await sendFresh(consumer, form.publicId);
    const response = await consumer.sendCode(other.publicId, { cellPhone: phone.typed, method: 'sms' });
    expect(response.statusCode).toBe(201);
  });

  it('sends nothing to a test number; its fixed code verifies, and the verification is a test', async () => {
    const { owner, form } = await liveForm();
    const phone = newCellPhone();
    await t.db.db
      .insert(schema.testPhoneNumbers)
      .values({ accountId: owner.accountId, cellPhone: phone.e164, code: '424242' });
    const consumer = await newConsumer(t.app, form.publicId);
    const response = await consumer.sendCode(form.publicId, { cellPhone: phone.typed, method: 'sms' });
    expect(response.statusCode).toBe(201);
    const sent = response.json<SendCodeResponse>();
    expect(await attemptRow(sent.attemptId)).toMatchObject({ isTest: true, status: 'pending' });
    expect(await outboxFor(t.app, phone.e164)).toEqual([]);

    const wrong = await consumer.check(sent.attemptId, '000000');
    expect(wrong.json()).toEqual(fieldError('code', en.codeWrong(4)));
    const right = await consumer.check(sent.attemptId, '424242');
    expect(right.statusCode).toBe(200);
    const [verification] = await verificationsOf(form.id);
    expect(verification).toMatchObject({ isTest: true, cellPhone: phone.e164, attempts: 2 });

    // Another account's test number is an ordinary number here.
    const other = await liveForm();
    const elsewhere = await newConsumer(t.app, other.form.publicId);
    const real = await elsewhere.sendCode(other.form.publicId, { cellPhone: phone.typed, method: 'sms' });
    expect(await attemptRow(real.json<SendCodeResponse>().attemptId)).toMatchObject({ isTest: false });
    expect(await latestCodeTo(t.app, phone.e164)).toMatch(/^\d{6}$/);
  });
});

describe('POST /api/public/attempts/{attemptId}/check', () => {
  it('verifies the right code and records the evidence', async () => {
    const owner = await newOwner(t.app, 'Acme Lending');
    const form = await createPublicForm(owner, { name: 'Auto loan', category: 'Loans' });
    const consumer = await newConsumer(t.app, form.publicId);
    const phone = newCellPhone();
    const sentAt = t.clock.now();
    const response = await consumer.sendCode(form.publicId, {
      cellPhone: phone.typed,
      method: 'sms',
      externalRefId: 'CRM-9',
    });
    const sent = response.json<SendCodeResponse>();
    const code = await latestCodeTo(t.app, phone.e164);

    // The form is renamed before the check: the verification keeps the name at the time of the check.
    await owner.c.patch(`/api/verify-forms/${form.id}`, { name: 'Car loan', category: 'Auto' });
    t.clock.advance(2 * MINUTE);
    expect((await consumer.check(sent.attemptId, wrongCode(code))).statusCode).toBe(400);
    const checker = new TestClient(t.app, '203.0.113.77');
    checker.csrfToken = consumer.csrfToken;
    for (const [k, v] of consumer.cookies) checker.cookies.set(k, v);
    const checked = await checker.request({
      method: 'POST',
      url: `/api/public/attempts/${sent.attemptId}/check`,
      body: { code: ` ${code} ` },
      headers: { 'user-agent': 'Checker/1.0' },
    });
    expect(checked.statusCode, checked.body).toBe(200);
    const { verificationId } = checked.json<{ verified: true; verificationId: number }>();
    expect(checked.json()).toEqual({ verified: true, verificationId: expect.any(Number) });

    const attempt = await attemptRow(sent.attemptId);
    expect(attempt.createdAt).toEqual(sentAt);
    const rows = await verificationsOf(form.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual({
      id: verificationId,
      accountId: owner.accountId,
      verifyFormId: form.id,
      cellPhone: phone.e164,
      externalRefId: 'CRM-9',
      verifyFormName: 'Car loan',
      verifyFormCategory: 'Auto',
      verificationMethod: 'sms',
      email: null,
      isTest: false,
      // When the provider took the message (the send job's sent_at), else when it was asked for.
      codeSentAt: attempt.sentAt ?? sentAt,
      verifiedAt: t.clock.now(),
      attempts: 2,
      ip: '203.0.113.77',
      userAgent: 'Checker/1.0',
      createdAt: t.clock.now(),
      source: 'hosted',
      // The form has no consent text (issue #18): nothing was shown, nothing recorded.
      consentVersionId: null,
      consentVersion: null,
      consentLanguage: null,
      consentSha256: null,
      redactedAt: null,
    });
    expect(attempt).toMatchObject({
      status: 'verified',
      verifiedAt: t.clock.now(),
      verificationId,
      wrongTries: 1,
    });
  });

  it('counts wrong codes down and locks the attempt at the fifth, even for the right code after', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    const wrong = wrongCode(code);
    for (const left of [4, 3, 2, 1]) {
      const response = await consumer.check(sent.attemptId, wrong);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(fieldError('code', en.codeWrong(left)));
    }
    expect(en.codeWrong(1)).toBe('That code is not right. 1 try left.');
    const fifth = await consumer.check(sent.attemptId, wrong);
    expect(fifth.json()).toEqual(fieldError('code', en.codeLocked));
    const right = await consumer.check(sent.attemptId, code);
    expect(right.statusCode).toBe(400);
    expect(right.json()).toEqual(fieldError('code', en.codeLocked));
    expect(await attemptRow(sent.attemptId)).toMatchObject({ status: 'locked', wrongTries: 5 });
    expect(await verificationsOf(form.id)).toEqual([]);
  });

  it('does not count an empty or malformed code as a try', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    const cases: [unknown, string][] = [
      ['', en.codeRequired],
      ['   ', en.codeRequired],
      [undefined, en.codeRequired],
      ['12345', en.codeFormat],
      ['1234567', en.codeFormat],
      ['12a456', en.codeFormat],
      [123456, en.codeFormat],
      ['1'.repeat(30), en.codeFormat],
    ];
    for (const [value, message] of cases) {
      const response = await consumer.post(`/api/public/attempts/${sent.attemptId}/check`, { code: value });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(fieldError('code', message));
    }
    expect((await attemptRow(sent.attemptId)).wrongTries).toBe(0);
    expect((await consumer.check(sent.attemptId, code)).statusCode).toBe(200);
  });

  it('refuses an expired code after 10 minutes', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    t.clock.advance(CODE_TTL_SECONDS * 1000);
    const response = await consumer.check(sent.attemptId, code);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError('code', en.codeExpired));
    expect(await verificationsOf(form.id)).toEqual([]);
  });

  it('takes the code until just before it expires', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    t.clock.advance(CODE_TTL_SECONDS * 1000 - 1000);
    expect((await consumer.check(sent.attemptId, code)).statusCode).toBe(200);
  });

  it('refuses a used code', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    expect((await consumer.check(sent.attemptId, code)).statusCode).toBe(200);
    const again = await consumer.check(sent.attemptId, code);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(fieldError('code', en.codeUsed));
    expect(await verificationsOf(form.id)).toHaveLength(1);
  });

  it('creates exactly one verification when the right code arrives twice at once', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    const answers = await Promise.all([
      consumer.check(sent.attemptId, code),
      consumer.check(sent.attemptId, code),
      consumer.check(sent.attemptId, code),
    ]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 400, 400]);
    for (const refused of answers.filter((a) => a.statusCode === 400)) {
      expect(refused.json()).toEqual(fieldError('code', en.codeUsed));
    }
    const rows = await verificationsOf(form.id);
    expect(rows).toHaveLength(1);
    expect((await attemptRow(sent.attemptId)).verificationId).toBe(rows[0]?.id);
  });

  it('judges one code of a burst from an address with one guess left, the right code among them or not', async () => {
    // The guess limit's lock is held to the judgement's commit (migration 0029). A reading alone would let the whole
    // burst be compared, the right code among them, while only the wrong ones were counted.
    const { form } = await liveForm();
    const ip = nextIp();
    const consumer = await newConsumer(t.app, form.publicId, ip);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    const { rateLimit, config } = t.app.services;
    const bucket = `code-check-wrong:ip:${ipKey(ip)}`;
    for (let i = 0; i < config.codeSendLimits.wrongChecksPerIpPerHour - 1; i++) await rateLimit.hit(bucket);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => consumer.check(sent.attemptId, i === 6 ? code : wrongCode(code))),
    );
    const entries = await t.db.db
      .select({ correct: schema.codeEntries.correct })
      .from(schema.codeEntries)
      .where(eq(schema.codeEntries.attemptId, sent.attemptId));
    expect(entries).toHaveLength(1);
    const row = await attemptRow(sent.attemptId);
    const statuses = answers.map((a) => a.statusCode).sort();
    if (entries[0]?.correct) {
      // Judged first, the right code took no guess: the rest found the attempt verified.
      expect(statuses).toEqual([200, ...Array<number>(11).fill(400)]);
      for (const a of answers.filter((a) => a.statusCode === 400)) {
        expect(a.json()).toEqual(fieldError('code', en.codeUsed));
      }
      expect(row).toMatchObject({ status: 'verified', wrongTries: 0 });
    } else {
      // A wrong code took the last guess: everything after it was refused uncompared.
      expect(statuses).toEqual([400, ...Array<number>(11).fill(429)]);
      expect(answers.find((a) => a.statusCode === 400)?.json()).toEqual(fieldError('code', en.codeWrong(4)));
      expect(row).toMatchObject({ status: 'pending', wrongTries: 1 });
    }
  });

  it('takes nothing of the per-IP guess limit for a right code', async () => {
    const { form } = await liveForm();
    const ip = nextIp();
    const consumer = await newConsumer(t.app, form.publicId, ip);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    expect((await consumer.check(sent.attemptId, wrongCode(code))).statusCode).toBe(400);
    expect((await consumer.check(sent.attemptId, code)).statusCode).toBe(200);
    const events = await t.db.db
      .select({ id: schema.rateLimitEvents.id })
      .from(schema.rateLimitEvents)
      .where(eq(schema.rateLimitEvents.bucket, `code-check-wrong:ip:${ipKey(ip)}`));
    expect(events).toHaveLength(1);
  });

  it('makes the verification and its webhook event in one autocommit statement', async () => {
    // The insert's trigger locks today's daily-count row of the form until commit; every verification of the form
    // waits for it. Held across round trips to a busy process (scripts/load.ts showed verifications queueing behind
    // it, and their pool connections with them), so the approval opens no transaction: one statement updates the
    // attempt, enters the code, inserts the verification and stores its `verification.approved` event.
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    const db = t.db.db;
    const transaction = vi.spyOn(db, 'transaction');
    const execute = vi.spyOn(db, 'execute');
    try {
      expect((await consumer.check(sent.attemptId, code)).statusCode).toBe(200);
      // No transaction at all: the wrong-guess limit's locked step (ADR 12) is in the same statement
      // (judge_verification_code, migration 0029).
      expect(transaction).not.toHaveBeenCalled();
      expect(execute).not.toHaveBeenCalled();
    } finally {
      transaction.mockRestore();
      execute.mockRestore();
    }
    const [event] = await t.db.db
      .select({ type: schema.webhookEvents.type, data: schema.webhookEvents.data })
      .from(schema.webhookEvents)
      .where(
        and(
          eq(schema.webhookEvents.type, 'verification.approved'),
          sql`${schema.webhookEvents.data}->>'id' = ${sent.attemptId}`,
        ),
      );
    expect(event?.data).toMatchObject({ id: sent.attemptId, status: 'approved' });
    const rows = await verificationsOf(form.id);
    expect(rows).toHaveLength(1);
    expect((await attemptRow(sent.attemptId)).verificationId).toBe(rows[0]?.id);
    const counts = await t.db.db
      .select({ n: schema.verificationDailyCounts.n })
      .from(schema.verificationDailyCounts)
      .where(eq(schema.verificationDailyCounts.verifyFormId, form.id));
    expect(counts).toEqual([{ n: 1 }]);
  });

  it('counts concurrent wrong codes each, and locks at five', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    const answers = await Promise.all(
      Array.from({ length: 7 }, () => consumer.check(sent.attemptId, wrongCode(code))),
    );
    expect(answers.every((a) => a.statusCode === 400)).toBe(true);
    expect(await attemptRow(sent.attemptId)).toMatchObject({ status: 'locked', wrongTries: 5 });
  });

  it('does not compare a code while another request holds the last try: a right one is refused as locked', async () => {
    // The state a burst makes: four wrong tries counted, the fifth taken by a request still comparing its code.
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    await t.db.db
      .update(schema.verificationAttempts)
      .set({ wrongTries: 5 })
      .where(eq(schema.verificationAttempts.id, sent.attemptId));
    const answer = await consumer.check(sent.attemptId, code);
    expect(answer.json()).toEqual(fieldError('code', en.codeLocked));
    expect(await attemptRow(sent.attemptId)).toMatchObject({ status: 'pending', verificationId: null });
    const entries = await t.db.db
      .select()
      .from(schema.codeEntries)
      .where(eq(schema.codeEntries.attemptId, sent.attemptId));
    expect(entries).toEqual([]);
  });

  it('compares at most five codes of a burst from 40 networks at one attempt, the right code among them', async () => {
    const { form } = await liveForm();
    const owner = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(owner, form.publicId);
    const guessers = await Promise.all(Array.from({ length: 40 }, () => newConsumer(t.app, form.publicId)));
    const answers = await Promise.all(
      guessers.map((guesser, i) => guesser.check(sent.attemptId, i % 13 === 12 ? code : wrongCode(code))),
    );
    expect(answers.filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
    const entries = await t.db.db
      .select({ correct: schema.codeEntries.correct })
      .from(schema.codeEntries)
      .where(eq(schema.codeEntries.attemptId, sent.attemptId));
    const row = await attemptRow(sent.attemptId);
    // Every compared code is an entry (a right one that lost to the fifth wrong one gave its try back).
    expect(entries.length).toBeLessThanOrEqual(5);
    expect(row.wrongTries).toBe(entries.filter((e) => !e.correct).length);
    expect(answers.filter((a) => a.statusCode === 200).length).toBe(row.status === 'verified' ? 1 : 0);
    expect(['verified', 'locked']).toContain(row.status);
  });

  it('answers 404 for an unknown or malformed attempt id', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'nope', 'x'.repeat(90)]) {
      const response = await consumer.check(id, '123456');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
  });

  it('answers 404 once the form is taken offline', async () => {
    const { owner, form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    await owner.c.patch(`/api/verify-forms/${form.id}`, { isLive: false });
    expect((await consumer.check(sent.attemptId, code)).statusCode).toBe(404);
  });

  it('answers a Spanish form in Spanish', async () => {
    const { form } = await liveForm({ language: 'es' });
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    expect((await consumer.check(sent.attemptId, '')).json()).toEqual(fieldError('code', es.codeRequired));
    expect((await consumer.check(sent.attemptId, '12')).json()).toEqual(fieldError('code', es.codeFormat));
    const wrong = await consumer.check(sent.attemptId, wrongCode(code));
    expect(wrong.json()).toEqual(fieldError('code', es.codeWrong(4)));
    expect(wrong.json<Record<string, string[]>>().code?.[0]).toBe(
      'Ese código no es correcto. Le quedan 4 intentos.',
    );
    expect((await consumer.check(sent.attemptId, code)).statusCode).toBe(200);
    expect((await consumer.check(sent.attemptId, code)).json()).toEqual(fieldError('code', es.codeUsed));
  });

  it('needs the CSRF token', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    const { sent, code } = await sendFresh(consumer, form.publicId);
    const response = await consumer.post(
      `/api/public/attempts/${sent.attemptId}/check`,
      { code },
      { csrf: false },
    );
    expect(response.statusCode).toBe(403);
  });

  it('the whole journey helper verifies a number (used by other tests)', async () => {
    const { form } = await liveForm();
    const { verified, e164 } = await verifyPhone(t.app, form.publicId, { externalRefId: 'REF-1' });
    const [row] = await verificationsOf(form.id);
    expect(row).toMatchObject({ id: verified.verificationId, cellPhone: e164, externalRefId: 'REF-1' });
  });
});
