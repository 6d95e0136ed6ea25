import { publicVerifyTexts, type SendCodeResponse } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CODE_SEND_LIMITS } from '../../config.ts';
import { useTestApp } from '../../test-support/app.ts';
import { DAY, HOUR } from '../../test-support/clock.ts';
import { latestCodeTo } from '../../test-support/codes.ts';
import {
  type Consumer,
  createPublicForm,
  newCellPhone,
  newConsumer,
} from '../../test-support/public-verify.ts';
import { newOwner } from '../../test-support/teams.ts';

/** Small limits, so each can be reached in a few requests. */
const limits = {
  perPhonePerDay: 2,
  perEmailPerDay: 2,
  perIpPerDay: 3,
  smsPerAccountPerDay: 5,
  emailPerAccountPerDay: 5,
  wrongChecksPerIpPerHour: 6,
};
const t = useTestApp({ config: { codeSendLimits: limits } });
const en = publicVerifyTexts.en;
const es = publicVerifyTexts.es;

async function liveForm(language: 'en' | 'es' = 'en') {
  const owner = await newOwner(t.app);
  return { owner, form: await createPublicForm(owner, { language }) };
}

function send(consumer: Consumer, publicId: string, typed: string) {
  return consumer.sendCode(publicId, { cellPhone: typed, method: 'sms' });
}

/** Past the 30-second spacing between two codes for the same number. */
const afterResendSpacing = () => t.clock.advance(31_000);

describe('code send limits (counted in the database)', () => {
  it('defaults: 10 per phone, 50 per IP, 10,000 SMS and 10,000 e-mails per account a day; 30 wrong checks per IP an hour', () => {
    expect(DEFAULT_CODE_SEND_LIMITS).toEqual({
      perPhonePerDay: 10,
      perEmailPerDay: 10,
      perIpPerDay: 50,
      smsPerAccountPerDay: 10_000,
      emailPerAccountPerDay: 10_000,
      wrongChecksPerIpPerHour: 30,
    });
  });

  it('per phone: refuses the third code of the day to one number, on any form, until a day has passed', async () => {
    const { form } = await liveForm();
    const phone = newCellPhone();
    for (let i = 0; i < limits.perPhonePerDay; i++) {
      const consumer = await newConsumer(t.app, form.publicId);
      expect((await send(consumer, form.publicId, phone.typed)).statusCode).toBe(201);
      afterResendSpacing();
    }
    const consumer = await newConsumer(t.app, form.publicId);
    const refused = await send(consumer, form.publicId, phone.typed);
    expect(refused.statusCode).toBe(429);
    // The oldest of the day's codes leaves the window first: it was sent 2 × 31 s ago.
    const retryAfter = DAY / 1000 - 31 * limits.perPhonePerDay;
    expect(refused.headers['retry-after']).toBe(String(retryAfter));
    expect(refused.json()).toEqual({ detail: en.tooManyForPhone(retryAfter), MainCode_: 'rate_limited' });
    expect(refused.json<{ detail: string }>().detail).toBe(
      'Too many codes were sent to this number today. Try again in 24 hours.',
    );

    // The limit protects the person: another company's form cannot send to the number either.
    const other = await liveForm('es');
    const elsewhere = await newConsumer(t.app, other.form.publicId);
    const refusedEs = await send(elsewhere, other.form.publicId, phone.typed);
    expect(refusedEs.statusCode).toBe(429);
    expect(refusedEs.json<{ detail: string }>().detail).toBe(es.tooManyForPhone(retryAfter));

    t.clock.advance(DAY);
    expect((await send(consumer, form.publicId, phone.typed)).statusCode).toBe(201);
  });

  it('per phone: of a burst for one number through one form, only the code sent counts (ADR 26)', async () => {
    const { form } = await liveForm();
    const phone = newCellPhone();
    const consumers = await Promise.all(Array.from({ length: 6 }, () => newConsumer(t.app, form.publicId)));
    const answers = await Promise.all(
      consumers.map((consumer) => send(consumer, form.publicId, phone.typed)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 429, 429, 429, 429, 429]);
    // The five refused were told to wait for the spacing, and cost none of the number's two codes a day.
    for (const answer of answers.filter((a) => a.statusCode === 429)) {
      expect(answer.json<{ detail: string }>().detail).toBe(en.resendTooSoon(30));
    }
    const [first, second] = consumers;
    if (!first || !second) throw new Error('consumers expected');
    afterResendSpacing();
    expect((await send(first, form.publicId, phone.typed)).statusCode).toBe(201);
    afterResendSpacing();
    const third = await send(second, form.publicId, phone.typed);
    expect(third.statusCode).toBe(429);
    expect(third.json<{ detail: string }>().detail).toMatch(/^Too many codes were sent to this number today/);
  });

  it('per IP: refuses the fourth code of the day from one address, whatever the number or form', async () => {
    const a = await liveForm();
    const b = await liveForm();
    const consumer = await newConsumer(t.app, a.form.publicId);
    for (const publicId of [a.form.publicId, b.form.publicId, a.form.publicId]) {
      expect((await send(consumer, publicId, newCellPhone().typed)).statusCode).toBe(201);
    }
    const refused = await send(consumer, b.form.publicId, newCellPhone().typed);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(DAY / 1000));
    expect(refused.json()).toEqual({ detail: en.tooManyFromIp(DAY / 1000), MainCode_: 'rate_limited' });
    // A refusal is not counted: a day after the first codes, the address may send again.
    t.clock.advance(DAY);
    expect((await send(consumer, b.form.publicId, newCellPhone().typed)).statusCode).toBe(201);
  });

  it('per IP: an IPv6 client is counted by its /64', async () => {
    const { form } = await liveForm();
    for (let i = 1; i <= limits.perIpPerDay; i++) {
      const consumer = await newConsumer(t.app, form.publicId, `2001:db8:77:1::${i}`);
      expect((await send(consumer, form.publicId, newCellPhone().typed)).statusCode).toBe(201);
    }
    const sameNetwork = await newConsumer(t.app, form.publicId, '2001:db8:77:1:ffff::9');
    expect((await send(sameNetwork, form.publicId, newCellPhone().typed)).statusCode).toBe(429);
    const otherNetwork = await newConsumer(t.app, form.publicId, '2001:db8:77:2::1');
    expect((await send(otherNetwork, form.publicId, newCellPhone().typed)).statusCode).toBe(201);
  });

  it('per account: refuses the sixth text message of the day for the account; other accounts are untouched', async () => {
    const { owner, form } = await liveForm();
    const second = await createPublicForm(owner, { name: 'Second form' });
    for (let i = 0; i < limits.smsPerAccountPerDay; i++) {
      const publicId = i % 2 ? second.publicId : form.publicId;
      const consumer = await newConsumer(t.app, publicId);
      expect((await send(consumer, publicId, newCellPhone().typed)).statusCode).toBe(201);
    }
    const consumer = await newConsumer(t.app, form.publicId);
    const refused = await send(consumer, second.publicId, newCellPhone().typed);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      detail: en.tooManySmsForAccount(DAY / 1000),
      MainCode_: 'rate_limited',
    });
    expect(refused.headers['retry-after']).toBe(String(DAY / 1000));

    const other = await liveForm();
    expect((await send(consumer, other.form.publicId, newCellPhone().typed)).statusCode).toBe(201);
  });

  it('test numbers skip the per-phone and per-account limits, not the per-IP one', async () => {
    const { owner, form } = await liveForm();
    const phone = newCellPhone();
    await t.db.db
      .insert(schema.testPhoneNumbers)
      .values({ accountId: owner.accountId, cellPhone: phone.e164, code: '111111' });
    // More than the per-phone limit, from fresh addresses.
    for (let i = 0; i < limits.perPhonePerDay + 2; i++) {
      const consumer = await newConsumer(t.app, form.publicId);
      expect((await send(consumer, form.publicId, phone.typed)).statusCode).toBe(201);
      afterResendSpacing();
    }
    // The account's real sends still have their whole budget.
    for (let i = 0; i < limits.smsPerAccountPerDay; i++) {
      const consumer = await newConsumer(t.app, form.publicId);
      expect((await send(consumer, form.publicId, newCellPhone().typed)).statusCode).toBe(201);
    }
    // One address: the per-IP limit holds for test numbers too.
    const consumer = await newConsumer(t.app, form.publicId);
    for (let i = 0; i < limits.perIpPerDay; i++) {
      afterResendSpacing();
      expect((await send(consumer, form.publicId, phone.typed)).statusCode).toBe(201);
    }
    afterResendSpacing();
    const refused = await send(consumer, form.publicId, phone.typed);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ detail: string }>().detail).toMatch(
      /^Too many codes were requested from your connection/,
    );
  });
});

describe('wrong code checks per IP', () => {
  it('refuses every check from an address after 6 wrong codes in an hour, in the form language', async () => {
    const { form } = await liveForm('es');
    const consumer = await newConsumer(t.app, form.publicId);
    const attempts: { id: string; code: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const phone = newCellPhone();
      const sent = (await send(consumer, form.publicId, phone.typed)).json<SendCodeResponse>();
      attempts.push({ id: sent.attemptId, code: await latestCodeTo(t.app, phone.e164) });
    }
    const [first, second] = attempts;
    if (!first || !second) throw new Error('two attempts expected');
    const wrong = (code: string) => (code === '000000' ? '000001' : '000000');
    for (let i = 0; i < 5; i++) await consumer.check(first.id, wrong(first.code));
    expect((await consumer.check(second.id, wrong(second.code))).statusCode).toBe(400);

    const refused = await consumer.check(second.id, second.code);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(HOUR / 1000));
    expect(refused.json()).toEqual({ detail: es.tooManyChecks(HOUR / 1000), MainCode_: 'rate_limited' });

    // Another address may still check (the attempt itself has one wrong try).
    const other = await newConsumer(t.app, form.publicId);
    expect((await other.check(second.id, second.code)).statusCode).toBe(200);
  });

  it('right codes and malformed codes do not count', async () => {
    const { form } = await liveForm();
    const consumer = await newConsumer(t.app, form.publicId);
    for (let i = 0; i < limits.wrongChecksPerIpPerHour + 1; i++) {
      expect((await consumer.check('AAAAAAAAAAAAAAAAAAAAAA', '123456')).statusCode).toBe(404);
    }
    const phone = newCellPhone();
    const sent = (await send(consumer, form.publicId, phone.typed)).json<SendCodeResponse>();
    for (let i = 0; i < limits.wrongChecksPerIpPerHour + 1; i++) {
      expect((await consumer.check(sent.attemptId, '12')).statusCode).toBe(400);
    }
    const code = await latestCodeTo(t.app, phone.e164);
    expect((await consumer.check(sent.attemptId, code)).statusCode).toBe(200);
  });
});
