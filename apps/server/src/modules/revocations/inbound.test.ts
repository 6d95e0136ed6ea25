import { publicRevokeTexts } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { TEST_PUBLIC_URL } from '../../test-support/app.ts';
import { waitForSend } from '../../test-support/attempts.ts';
import { DAY, MINUTE } from '../../test-support/clock.ts';
import { createPublicForm, newCellPhone } from '../../test-support/public-verify.ts';
import { newOwner } from '../../test-support/teams.ts';
import { TWILIO_TEST_CREDENTIALS, twilioSignature } from '../../test-support/twilio.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';
import { revocationDeadline } from './deadline.ts';

const { t, twilio } = useTwilioTestApp({ listening: true });

/** The number's messaging webhook, as configured in Twilio's console: PUBLIC_URL and the path. */
const INBOUND_URL = `${TEST_PUBLIC_URL}/api/webhooks/twilio/inbound`;
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
/** The one confirmation text (FCC 24-24), as TwiML answers it: Twilio texts it back to the number that replied. */
const confirmationTwiml = (text: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response><Message>${text}</Message></Response>`;

/** A live code texted to `to` through API v1 by a new account, once Twilio took it. */
async function textedCode(to: string, options: { language?: 'en' | 'es' } = {}) {
  const owner = await newOwner(t.app);
  const form = await createPublicForm(owner, options);
  const { key } = await newApiKey(owner, ['verifications:write'], 'live');
  const started = await apiV1(t.app, key).POST('/api/v1/verifications', { body: { formId: form.id, to } });
  expect(started.response.status).toBe(201);
  const row = await waitForSend(t.app, started.data?.id ?? '');
  return { accountId: owner.accountId, attemptId: row.id };
}

const reply = (
  from: string,
  body: string,
  options: { messageSid?: string; signature?: string | null } = {},
) => twilio.replyFrom(from, body, { inboundUrl: INBOUND_URL, ...options });

async function revocationsOf(phone: string) {
  return t.db.db
    .select()
    .from(schema.revocations)
    .where(eq(schema.revocations.phone, phone))
    .orderBy(asc(schema.revocations.receivedAt), asc(schema.revocations.id));
}

describe('replies to code texts (Twilio inbound messages)', () => {
  it('records a per-se reply in English or Spanish as a revocation of the account that texted last, with its deadline', async () => {
    const to = newCellPhone().e164;
    const code = await textedCode(to);

    const english = await reply(to, 'STOP');
    expect(english.status).toBe(200);
    t.clock.advance(MINUTE);
    const spanish = await reply(to, 'Alto, gracias');
    expect(spanish.status).toBe(200);

    const rows = await revocationsOf(to);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({
        accountId: code.accountId,
        attemptId: code.attemptId,
        channel: 'sms_reply',
        status: 'open',
        acknowledgedAt: null,
      });
      // 10 business days from the day after the day of receipt (its date in New York): two weekends at least in
      // between, so at least 12 calendar days after it (received on a Sunday: the Friday 12 days later). Counted from
      // the receipt's local date, not its instant: a Sunday evening in New York is already Monday in UTC.
      expect(row.deadline).toBe(revocationDeadline(row.receivedAt, 'federal'));
      const receivedOn = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(
        row.receivedAt,
      );
      expect((Date.parse(row.deadline) - Date.parse(receivedOn)) / DAY).toBeGreaterThanOrEqual(12);
    }
    expect(rows.map((r) => [r.words, r.perSeWords])).toEqual([
      ['STOP', ['stop']],
      ['Alto, gracias', ['alto']],
    ]);
    expect(rows.map((r) => r.providerMessageId)).toEqual([english.messageSid, spanish.messageSid]);
    // Each is a consent.revoked event and an audit event of the account, in the reply's own transaction.
    const events = await t.db.db
      .select({ type: schema.webhookEvents.type, data: schema.webhookEvents.data })
      .from(schema.webhookEvents)
      .where(eq(schema.webhookEvents.accountId, code.accountId));
    expect(
      events.filter((e) => e.type === 'consent.revoked').map((e) => (e.data as { id: string }).id),
    ).toEqual(expect.arrayContaining(rows.map((r) => r.id)));
    const audited = await t.db.db
      .select({ action: schema.auditEvents.action, actorType: schema.auditEvents.actorType })
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.accountId, code.accountId));
    expect(audited.filter((a) => a.action === 'revocation.recorded')).toEqual([
      { action: 'revocation.recorded', actorType: 'system' },
      { action: 'revocation.recorded', actorType: 'system' },
    ]);
  });

  it('a STOP from a Florida number is due by the earlier of Florida’s 15 days and the federal 10 business days', async () => {
    // A Florida area code (305), the rest of the number new: the area code places it (domain/nanp-area-codes.ts).
    const to = `+1305${newCellPhone().e164.slice(5)}`;
    await textedCode(to);
    // Received on the next 20 December: Christmas and New Year's Day push the federal 10 business days to 5 January
    // or later, past Florida's 15 calendar days, so the two rules give different days.
    const now = t.clock.now();
    let year = now.getUTCFullYear();
    if (Date.UTC(year, 11, 20, 17) <= now.getTime()) year += 1;
    t.clock.advance(Date.UTC(year, 11, 20, 17) - now.getTime());
    await reply(to, 'STOP');
    t.clock.advance(MINUTE);
    await reply(to, 'Alto');
    const [stop, alto] = await revocationsOf(to);
    const received = stop?.receivedAt ?? new Date();
    expect(stop?.deadline).toBe(revocationDeadline(received, 'florida_stop'));
    expect(revocationDeadline(received, 'florida_stop') < revocationDeadline(received, 'federal')).toBe(true);
    // Florida's cure period is for a STOP: other per-se words keep the federal clock.
    expect(alto?.deadline).toBe(revocationDeadline(alto?.receivedAt ?? new Date(), 'federal'));
  });

  it('answers a per-se reply with its one confirmation text, in the language of its words', async () => {
    const to = newCellPhone().e164;
    const code = await textedCode(to, { language: 'es' });
    const [account] = await t.db.db
      .select({ company: schema.accounts.displayName })
      .from(schema.accounts)
      .where(eq(schema.accounts.id, code.accountId));
    const company = account?.company;
    const english = await reply(to, 'STOP');
    expect(english).toMatchObject({
      status: 200,
      body: confirmationTwiml(publicRevokeTexts.en.confirmationSms(company ?? '')),
    });
    const spanish = await reply(to, 'ALTO');
    expect(spanish.body).toBe(confirmationTwiml(publicRevokeTexts.es.confirmationSms(company ?? '')));
    // A Spanish phrase that can only mean it: Spanish.
    expect((await reply(to, 'no me manden más mensajes')).body).toContain('Confirmado: su consentimiento');
    // Not a per-se revocation: nothing is said back (a person decides later, long past the five minutes).
    expect((await reply(to, 'I need to cancel my appointment')).body).toBe(EMPTY_TWIML);
    // Nothing of ours is sent through the Messages API for a reply: the TwiML answer is the text.
    expect(twilio.received.filter((m) => m.to === to && m.body.startsWith('Confirm'))).toEqual([]);
  });

  it('a company name with markup is escaped in the TwiML', async () => {
    const to = newCellPhone().e164;
    const code = await textedCode(to);
    await t.db.db
      .update(schema.accounts)
      .set({ displayName: 'Smith & <Sons>' })
      .where(eq(schema.accounts.id, code.accountId));
    const answer = await reply(to, 'stop');
    expect(answer.body).toContain('contacted by Smith &amp; &lt;Sons&gt; at this number');
  });

  it('keeps other words as a possible revocation, with the message, for a member to decide', async () => {
    const to = newCellPhone().e164;
    await textedCode(to);
    await reply(to, 'I need to cancel my appointment');
    t.clock.advance(MINUTE);
    await reply(to, '¿Quién es?');
    const rows = await revocationsOf(to);
    expect(rows.map((r) => [r.status, r.words, r.perSeWords])).toEqual([
      ['possible', 'I need to cancel my appointment', ['cancel']],
      ['possible', '¿Quién es?', []],
    ]);
    // Not a revocation until a member decides: no consent.revoked yet.
    const events = await t.db.db
      .select({ type: schema.webhookEvents.type })
      .from(schema.webhookEvents)
      .where(eq(schema.webhookEvents.accountId, rows[0]?.accountId ?? 0));
    expect(events.filter((e) => e.type === 'consent.revoked')).toEqual([]);
  });

  it('belongs to the account whose code text to the number was the latest', async () => {
    const to = newCellPhone().e164;
    await textedCode(to);
    t.clock.advance(MINUTE);
    const latest = await textedCode(to);
    await reply(to, 'unsubscribe');
    const [row] = await revocationsOf(to);
    expect(row?.accountId).toBe(latest.accountId);
    expect(row?.attemptId).toBe(latest.attemptId);
  });

  it('a reply from a number we never texted is answered the same and kept nowhere', async () => {
    const stranger = newCellPhone().e164;
    expect(await reply(stranger, 'STOP')).toMatchObject({ status: 200, body: EMPTY_TWIML });
    expect(await revocationsOf(stranger)).toEqual([]);
  });

  it('the same reply delivered 10 times at once is one revocation', async () => {
    const to = newCellPhone().e164;
    await textedCode(to);
    const messageSid = `SM${'ab'.repeat(16)}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => reply(to, 'STOP', { messageSid })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(await revocationsOf(to)).toHaveLength(1);
    // The one confirmation goes with the first delivery only: every repeated one is answered with nothing.
    expect(answers.filter((a) => a.body.includes('<Message>'))).toHaveLength(1);
    expect(answers.filter((a) => a.body === EMPTY_TWIML)).toHaveLength(9);
    const again = await reply(to, 'STOP', { messageSid });
    expect(again.body).toBe(EMPTY_TWIML);
  });

  it('refuses a missing or wrong signature (403) and records nothing', async () => {
    const to = newCellPhone().e164;
    await textedCode(to);
    for (const signature of [null, '', 'not-a-signature']) {
      const answer = await reply(to, 'STOP', { signature });
      expect(answer.status).toBe(403);
    }
    // Signed with the right token over another URL (the loopback the request came to) is refused too.
    const forged = twilioSignature(TWILIO_TEST_CREDENTIALS.authToken, `${twilio.callbackOrigin}/x`, {});
    expect((await reply(to, 'STOP', { signature: forged })).status).toBe(403);
    expect(await revocationsOf(to)).toEqual([]);
  });
});
