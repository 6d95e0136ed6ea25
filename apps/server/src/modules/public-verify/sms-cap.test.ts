import { publicVerifyTexts } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CODE_SEND_LIMITS } from '../../config.ts';
import { useTestApp } from '../../test-support/app.ts';
import { DAY } from '../../test-support/clock.ts';
import { createPublicForm, newCellPhone, newConsumer } from '../../test-support/public-verify.ts';
import { newOwner } from '../../test-support/teams.ts';

/**
 * The daily cap on an account's text messages (issue 13 item 2, toll fraud): SMS_PER_ACCOUNT_PER_DAY, lowered here so
 * a burst reaches it; e-mailed codes have a cap of their own.
 */

const limits = { ...DEFAULT_CODE_SEND_LIMITS, smsPerAccountPerDay: 20, emailPerAccountPerDay: 4 };
const t = useTestApp({ config: { codeSendLimits: limits } });
const en = publicVerifyTexts.en;
const es = publicVerifyTexts.es;
const BURST = 60;

const sentBy = (accountId: number, method: 'sms' | 'email') =>
  t.db.db
    .select({ id: schema.verificationAttempts.id })
    .from(schema.verificationAttempts)
    .where(
      and(
        eq(schema.verificationAttempts.accountId, accountId),
        eq(schema.verificationAttempts.method, method),
        eq(schema.verificationAttempts.isTest, false),
      ),
    );

describe('text messages per account and day', () => {
  it(`a burst of ${BURST} sends to different numbers gets exactly the cap through; the rest are told why`, async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const spanish = await createPublicForm(owner, { language: 'es', name: 'Préstamo' });
    // Each from its own network, to its own number: only the account's cap can stop them.
    const consumers = await Promise.all(
      Array.from({ length: BURST }, () => newConsumer(t.app, form.publicId)),
    );
    const responses = await Promise.all(
      consumers.map((consumer) =>
        consumer.sendCode(form.publicId, { cellPhone: newCellPhone().typed, method: 'sms' }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(limits.smsPerAccountPerDay);
    expect(statuses.filter((status) => status === 429)).toHaveLength(BURST - limits.smsPerAccountPerDay);
    expect(await sentBy(owner.accountId, 'sms')).toHaveLength(limits.smsPerAccountPerDay);

    const refused = responses.find((response) => response.statusCode === 429);
    expect(refused?.headers['retry-after']).toBe(String(DAY / 1000));
    expect(refused?.json()).toEqual({
      detail: en.tooManySmsForAccount(DAY / 1000),
      MainCode_: 'rate_limited',
    });
    expect(en.tooManySmsForAccount(DAY / 1000)).toBe(
      'This form has reached its daily limit of text messages. Choose e-mail, or try again in 24 hours.',
    );

    // Every form of the account shares the cap, and answers in its own language.
    const consumer = await newConsumer(t.app, spanish.publicId);
    const refusedEs = await consumer.sendCode(spanish.publicId, {
      cellPhone: newCellPhone().typed,
      method: 'sms',
    });
    expect(refusedEs.statusCode).toBe(429);
    expect(refusedEs.json()).toEqual({
      detail: es.tooManySmsForAccount(DAY / 1000),
      MainCode_: 'rate_limited',
    });
    expect(es.tooManySmsForAccount(DAY / 1000)).toBe(
      'Este formulario alcanzó su límite diario de mensajes de texto. Elija correo electrónico o inténtelo de nuevo en 24 horas.',
    );

    // The cap is on text messages: a code by e-mail still goes out, as the message suggests.
    const byEmail = await consumer.sendCode(spanish.publicId, {
      cellPhone: newCellPhone().typed,
      method: 'email',
      email: `cap-${Date.now()}@example.com`,
    });
    expect(byEmail.statusCode, byEmail.body).toBe(201);

    // Another account has its own cap; a day later this one sends again.
    const other = await newOwner(t.app);
    const otherForm = await createPublicForm(other);
    const elsewhere = await newConsumer(t.app, otherForm.publicId);
    const sent = await elsewhere.sendCode(otherForm.publicId, {
      cellPhone: newCellPhone().typed,
      method: 'sms',
    });
    expect(sent.statusCode).toBe(201);
    t.clock.advance(DAY);
    const nextDay = await newConsumer(t.app, form.publicId);
    const again = await nextDay.sendCode(form.publicId, { cellPhone: newCellPhone().typed, method: 'sms' });
    expect(again.statusCode).toBe(201);
  });

  it('e-mailed codes have their own cap, which leaves text messages alone', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const consumers = await Promise.all(Array.from({ length: 10 }, () => newConsumer(t.app, form.publicId)));
    const responses = await Promise.all(
      consumers.map((consumer, i) =>
        consumer.sendCode(form.publicId, {
          cellPhone: newCellPhone().typed,
          method: 'email',
          email: `cap-${i}-${Date.now()}@example.com`,
        }),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(
      limits.emailPerAccountPerDay,
    );
    const refused = responses.find((response) => response.statusCode === 429);
    expect(refused?.json()).toEqual({
      detail: en.tooManyEmailsForAccount(DAY / 1000),
      MainCode_: 'rate_limited',
    });

    const consumer = await newConsumer(t.app, form.publicId);
    const sms = await consumer.sendCode(form.publicId, { cellPhone: newCellPhone().typed, method: 'sms' });
    expect(sms.statusCode).toBe(201);
  });

  it('sends to test numbers do not count: they send nothing', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    for (let i = 0; i < limits.smsPerAccountPerDay + 5; i++) {
      const phone = newCellPhone();
      await t.db.db
        .insert(schema.testPhoneNumbers)
        .values({ accountId: owner.accountId, cellPhone: phone.e164, code: '111111' });
      const consumer = await newConsumer(t.app, form.publicId);
      expect(
        (await consumer.sendCode(form.publicId, { cellPhone: phone.typed, method: 'sms' })).statusCode,
      ).toBe(201);
    }
    const consumer = await newConsumer(t.app, form.publicId);
    const real = await consumer.sendCode(form.publicId, { cellPhone: newCellPhone().typed, method: 'sms' });
    expect(real.statusCode).toBe(201);
  });
});
