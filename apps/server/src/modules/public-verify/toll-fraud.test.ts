import { publicVerifyTexts, type SendCodeResponse } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { outboxFor } from '../../test-support/outbox.ts';
import { createPublicForm, newCellPhone, newConsumer } from '../../test-support/public-verify.ts';
import { newOwner } from '../../test-support/teams.ts';

/**
 * Toll fraud (issue 13 item 2): numbers that bill the sender or cannot take a text are refused, codes go only to the
 * countries the account allows, and the account's text messages are capped per day.
 */

const t = useTestApp();
const en = publicVerifyTexts.en;
const es = publicVerifyTexts.es;

async function liveForm(language: 'en' | 'es' = 'en') {
  const owner = await newOwner(t.app);
  return { owner, form: await createPublicForm(owner, { language }) };
}

const attemptsOf = (formId: number) =>
  t.db.db
    .select()
    .from(schema.verificationAttempts)
    .where(eq(schema.verificationAttempts.verifyFormId, formId));

const refusedNumbers = [
  ['premium rate, US', '+1 900 555 0100', '+19005550100'],
  ['premium rate, UK', '+44 909 879 0000', '+449098790000'],
  ['premium rate, Russia', '+7 809 123 45 67', '+78091234567'],
  ['satellite, Iridium', '+881 6 1234 5678', '+881612345678'],
  ['satellite, Inmarsat', '+870 773 111 632', '+870773111632'],
  ['shared cost, Spain', '+34 901 12 34 56', '+34901123456'],
  ['VoIP, UK', '+44 56 1234 5678', '+445612345678'],
  ['toll-free, US', '+1 800 555 0100', '+18005550100'],
] as const;

describe('number types', () => {
  it.each(refusedNumbers)(
    'refuses %s (%s) in the form language, by SMS or e-mail, and sends nothing',
    async (_kind, typed, e164) => {
      for (const language of ['en', 'es'] as const) {
        const { form } = await liveForm(language);
        const consumer = await newConsumer(t.app, form.publicId);
        for (const body of [
          { cellPhone: typed, method: 'sms' },
          { cellPhone: typed, method: 'email', email: 'jane@example.com' },
        ]) {
          const response = await consumer.sendCode(form.publicId, body);
          expect(response.statusCode).toBe(400);
          expect(response.json()).toEqual({
            cellPhone: [publicVerifyTexts[language].cellPhoneUnsupported],
            MainCode_: 'validation_error',
          });
        }
        expect(await attemptsOf(form.id)).toEqual([]);
      }
      expect(await outboxFor(t.app, e164)).toEqual([]);
      expect(en.cellPhoneUnsupported).toBe(
        'This number cannot receive verification codes. Use a mobile number.',
      );
      expect(es.cellPhoneUnsupported).toBe(
        'Este número no puede recibir códigos de verificación. Use un número de celular.',
      );
    },
  );

  it('sends to US numbers, which libphonenumber types FIXED_LINE_OR_MOBILE, and to the test helpers’ numbers', async () => {
    const { form } = await liveForm();
    for (const typed of ['(415) 555-0100', '+12015550123', '2015550199', newCellPhone().typed]) {
      const consumer = await newConsumer(t.app, form.publicId);
      const response = await consumer.sendCode(form.publicId, { cellPhone: typed, method: 'sms' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<SendCodeResponse>().sentTo).toMatch(/^\+1 /);
    }
  });
});

describe('country allow-list', () => {
  it('refuses a mobile of a country the account does not allow, naming it in the form language, until the owner adds it', async () => {
    const { owner, form } = await liveForm();
    const spanish = await createPublicForm(owner, { language: 'es' });
    const ukMobile = '+44 7400 123456';
    const canadian = '+1 416 555 0123';
    for (const [publicId, typed, text] of [
      [form.publicId, ukMobile, en.cellPhoneCountry('United Kingdom')],
      [spanish.publicId, ukMobile, es.cellPhoneCountry('Reino Unido')],
      [form.publicId, canadian, en.cellPhoneCountry('Canada')],
      [spanish.publicId, canadian, es.cellPhoneCountry('Canadá')],
    ] as const) {
      const consumer = await newConsumer(t.app, publicId);
      for (const method of ['sms', 'email'] as const) {
        const response = await consumer.sendCode(publicId, {
          cellPhone: typed,
          method,
          ...(method === 'email' ? { email: 'jane@example.com' } : {}),
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ cellPhone: [text], MainCode_: 'validation_error' });
      }
    }
    expect(en.cellPhoneCountry('Canada')).toBe(
      'This company does not send verification codes to numbers in Canada. Use a mobile number from another country.',
    );
    expect(es.cellPhoneCountry('Canadá')).toBe(
      'Esta empresa no envía códigos de verificación a números de Canadá. Use un número de celular de otro país.',
    );
    expect(await attemptsOf(form.id)).toEqual([]);
    expect(await attemptsOf(spanish.id)).toEqual([]);

    // The owner adds the United Kingdom in Company Info: its mobiles get codes, Canada's still do not.
    const added = await owner.c.patch(`/api/accounts/${owner.accountId}`, { phoneCountries: ['US', 'GB'] });
    expect(added.statusCode).toBe(200);
    const consumer = await newConsumer(t.app, form.publicId);
    const sent = await consumer.sendCode(form.publicId, { cellPhone: ukMobile, method: 'sms' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json<SendCodeResponse>().sentTo).toBe('+44 •••• ••3456');
    const refused = await consumer.sendCode(form.publicId, { cellPhone: canadian, method: 'sms' });
    expect(refused.json()).toEqual({
      cellPhone: [en.cellPhoneCountry('Canada')],
      MainCode_: 'validation_error',
    });

    // Another account's list is its own.
    const other = await liveForm();
    const elsewhere = await newConsumer(t.app, other.form.publicId);
    const otherRefused = await elsewhere.sendCode(other.form.publicId, {
      cellPhone: ukMobile,
      method: 'sms',
    });
    expect(otherRefused.statusCode).toBe(400);
  });

  it('allowing a country does not let its premium-rate, shared-cost or VoIP numbers through', async () => {
    const { owner, form } = await liveForm('es');
    const allowed = await owner.c.patch(`/api/accounts/${owner.accountId}`, {
      phoneCountries: ['US', 'GB', 'RU', 'ES'],
    });
    expect(allowed.statusCode).toBe(200);
    const consumer = await newConsumer(t.app, form.publicId);
    for (const [, typed] of refusedNumbers) {
      const response = await consumer.sendCode(form.publicId, { cellPhone: typed, method: 'sms' });
      expect(response.json()).toEqual({
        cellPhone: [es.cellPhoneUnsupported],
        MainCode_: 'validation_error',
      });
    }
    expect(await attemptsOf(form.id)).toEqual([]);
  });
});
