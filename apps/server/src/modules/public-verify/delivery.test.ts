import {
  type ApiVerification,
  type PublicDeliveryStatus,
  publicVerifyTexts,
  RESEND_AFTER_SECONDS,
  type SendCodeResponse,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { latestCodeTo } from '../../test-support/codes.ts';
import {
  type Consumer,
  createPublicForm,
  newCellPhone,
  newConsumer,
} from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';

const t = useTestApp();
const en = publicVerifyTexts.en;
const es = publicVerifyTexts.es;
const notFound = { detail: 'Not found.', MainCode_: 'not_found' };

async function addTestNumber(owner: Owner, simulatedErrorCode: string | null = null): Promise<string> {
  const phone = newCellPhone();
  const response = await owner.c.post('/api/test-phone-numbers', {
    account: owner.accountId,
    cellPhone: phone.e164,
    code: '123456',
    simulatedErrorCode,
  });
  expect(response.statusCode, response.body).toBe(201);
  return phone.e164;
}

async function send(consumer: Consumer, publicId: string, body: Record<string, unknown>): Promise<string> {
  const response = await consumer.sendCode(publicId, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<SendCodeResponse>().attemptId;
}

const delivery = (attemptId: string) =>
  t.app.inject({ method: 'GET', url: `/api/public/attempts/${attemptId}/delivery` });

async function deliveryOf(attemptId: string): Promise<PublicDeliveryStatus> {
  const response = await delivery(attemptId);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PublicDeliveryStatus>();
}

const historyOf = (attemptId: string) =>
  t.db.db
    .select({
      status: schema.codeDeliveryEvents.status,
      errorCode: schema.codeDeliveryEvents.errorCode,
      providerMessageId: schema.codeDeliveryEvents.providerMessageId,
    })
    .from(schema.codeDeliveryEvents)
    .where(eq(schema.codeDeliveryEvents.attemptId, attemptId))
    .orderBy(asc(schema.codeDeliveryEvents.id));

const outcomeEvents = async (accountId: number) =>
  t.db.db
    .select({ type: schema.webhookEvents.type, data: schema.webhookEvents.data })
    .from(schema.webhookEvents)
    .where(
      and(
        eq(schema.webhookEvents.accountId, accountId),
        inArray(schema.webhookEvents.type, ['verification.delivered', 'verification.delivery_failed']),
      ),
    );

describe('test numbers simulate their message’s delivery', () => {
  it('by default: queued, sent, delivered (message id test:…), one verification.delivered, shown by API v1', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const cellPhone = await addTestNumber(owner);
    const consumer = await newConsumer(t.app, form.publicId);
    const attemptId = await send(consumer, form.publicId, { cellPhone, method: 'sms' });

    expect(await historyOf(attemptId)).toEqual([
      { status: 'queued', errorCode: null, providerMessageId: null },
      { status: 'sent', errorCode: null, providerMessageId: `test:${attemptId}` },
      { status: 'delivered', errorCode: null, providerMessageId: `test:${attemptId}` },
    ]);
    expect(await deliveryOf(attemptId)).toEqual({ status: 'delivered', message: null, suggestEmail: true });

    const { key } = await newApiKey(owner, ['verifications:read']);
    const shown = await apiV1(t.app, key).GET('/api/v1/verifications/{id}', {
      params: { path: { id: attemptId } },
    });
    expect(shown.data?.delivery).toEqual({ status: 'delivered', errorCode: null, reason: null });
    const events = await outcomeEvents(owner.accountId);
    expect(events.map((e) => e.type)).toEqual(['verification.delivered']);
    expect(events[0]?.data).toEqual(shown.data);
    // Still verifies with its fixed code.
    expect((await consumer.check(attemptId, '123456')).statusCode).toBe(200);
  });

  it('a number set to fail: undelivered with its code, verification.delivery_failed, the reason in API v1', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const cellPhone = await addTestNumber(owner, '30006');
    const consumer = await newConsumer(t.app, form.publicId);
    const attemptId = await send(consumer, form.publicId, { cellPhone, method: 'sms' });

    expect((await historyOf(attemptId)).map((e) => [e.status, e.errorCode])).toEqual([
      ['queued', null],
      ['sent', null],
      ['undelivered', '30006'],
    ]);
    const events = await outcomeEvents(owner.accountId);
    expect(events.map((e) => e.type)).toEqual(['verification.delivery_failed']);
    expect((events[0]?.data as ApiVerification | undefined)?.delivery).toEqual({
      status: 'undelivered',
      errorCode: '30006',
      reason: {
        reason: 'Landline: this number cannot receive text messages.',
        nextStep: 'Ask for a mobile number.',
      },
    });
  });

  it('the consumer reads why in the form’s language, by reason, with e-mail offered', async () => {
    const owner = await newOwner(t.app);
    const english = await createPublicForm(owner);
    const spanish = await createPublicForm(owner, { language: 'es' });
    const cases = [
      ['30003', en.deliveryUnreachable, es.deliveryUnreachable],
      ['30006', en.deliveryLandline, es.deliveryLandline],
      ['30007', en.deliveryCarrierFilter, es.deliveryCarrierFilter],
      ['21610', en.deliveryOptedOut, es.deliveryOptedOut],
      ['30005', en.deliveryUnknownNumber, es.deliveryUnknownNumber],
    ] as const;
    for (const [code, english_, spanish_] of cases) {
      const cellPhone = await addTestNumber(owner, code);
      for (const [form, message] of [
        [english, english_],
        [spanish, spanish_],
      ] as const) {
        const consumer = await newConsumer(t.app, form.publicId);
        const attemptId = await send(consumer, form.publicId, { cellPhone, method: 'sms' });
        expect(await deliveryOf(attemptId), code).toEqual({
          status: 'undelivered',
          message,
          suggestEmail: true,
        });
      }
    }
    expect(en.deliveryLandline).toBe(
      'This number can’t receive text messages. Use a mobile number or e-mail.',
    );
    expect(es.deliveryFailedSms).toBe(
      'No pudimos entregar el mensaje de texto a este número. Pruebe con el correo electrónico.',
    );
  });

  it('by e-mail: queued then sent, as a real e-mail (no outcome, no message, no switch to e-mail)', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const cellPhone = await addTestNumber(owner, '30003');
    const consumer = await newConsumer(t.app, form.publicId);
    const attemptId = await send(consumer, form.publicId, {
      cellPhone,
      method: 'email',
      email: 'test-consumer@example.com',
    });
    expect((await historyOf(attemptId)).map((e) => e.status)).toEqual(['queued', 'sent']);
    expect(await deliveryOf(attemptId)).toEqual({ status: 'sent', message: null, suggestEmail: false });
    expect(await outcomeEvents(owner.accountId)).toEqual([]);
  });
});

describe('GET /api/public/attempts/{attemptId}/delivery', () => {
  it('a real text still on its way: queued, no message; never cached', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const consumer = await newConsumer(t.app, form.publicId);
    const phone = newCellPhone();
    const attemptId = await send(consumer, form.publicId, { cellPhone: phone.typed, method: 'sms' });
    const response = await delivery(attemptId);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const shown = response.json<PublicDeliveryStatus>();
    expect(['queued', 'sent']).toContain(shown.status);
    expect(shown).toMatchObject({ message: null, suggestEmail: true });
    // Sent (in dev, the outbox) by the job: then `sent`, still no message.
    await latestCodeTo(t.app, phone.e164);
    expect(await deliveryOf(attemptId)).toMatchObject({ message: null });
  });

  it('404 for an unknown or malformed id, and for an attempt that takes no code: verified, replaced, expired, offline form', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    for (const id of ['nope', 'A'.repeat(22), '%00']) {
      const response = await delivery(id);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual(notFound);
    }

    const cellPhone = await addTestNumber(owner);
    const consumer = await newConsumer(t.app, form.publicId);
    const verified = await send(consumer, form.publicId, { cellPhone, method: 'sms' });
    expect((await consumer.check(verified, '123456')).statusCode).toBe(200);
    expect((await delivery(verified)).statusCode).toBe(404);

    t.clock.advance((RESEND_AFTER_SECONDS + 1) * 1000);
    const first = await send(consumer, form.publicId, { cellPhone, method: 'sms' });
    t.clock.advance((RESEND_AFTER_SECONDS + 1) * 1000);
    const second = await send(consumer, form.publicId, { cellPhone, method: 'sms' });
    expect((await delivery(first)).statusCode).toBe(404);
    expect((await delivery(second)).statusCode).toBe(200);

    t.clock.advance(10 * MINUTE);
    expect((await delivery(second)).statusCode).toBe(404);

    t.clock.advance((RESEND_AFTER_SECONDS + 1) * 1000);
    const third = await send(consumer, form.publicId, { cellPhone, method: 'sms' });
    expect((await delivery(third)).statusCode).toBe(200);
    await owner.c.patch(`/api/verify-forms/${form.id}`, { isLive: false });
    expect((await delivery(third)).statusCode).toBe(404);
  });
});
