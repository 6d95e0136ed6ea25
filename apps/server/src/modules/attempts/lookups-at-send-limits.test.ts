import { describe, expect, it } from 'vitest';
import { DEFAULT_CODE_SEND_LIMITS } from '../../config.ts';
import { createPublicForm, newCellPhone, newConsumer } from '../../test-support/public-verify.ts';
import { newOwner } from '../../test-support/teams.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';

/**
 * The carrier lookups a code send asks are billed, and a send's own limits are decided after them (issue #36 item 1,
 * ADR 42). From the hosted page, the sends that ask lookups take a unit of a per-address daily budget first, as large as
 * the address's daily codes: a script sending strangers' numbers from one address, all at once, asks no more lookups
 * than it may send codes.
 */

const PER_IP = 4;
const { t, twilio } = useTwilioTestApp({
  config: { codeSendLimits: { ...DEFAULT_CODE_SEND_LIMITS, perIpPerDay: PER_IP } },
});

describe('the lookups of code sends from one address', () => {
  it('a burst of strangers’ numbers asks each lookup only as often as the address may send codes', async () => {
    const owner = await newOwner(t.app);
    const settings = await owner.c.patch(`/api/accounts/${owner.accountId}/lookups`, {
      lineType: true,
      simSwap: true,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const form = await createPublicForm(owner);
    const consumer = await newConsumer(t.app, form.publicId);
    const phones = Array.from({ length: PER_IP * 3 }, () => newCellPhone());
    const before = twilio.lookups.length;

    const responses = await Promise.all(
      phones.map((phone) =>
        consumer.sendCode(form.publicId, {
          cellPhone: phone.typed,
          method: 'sms',
          ...consumer.consentFields(),
          ...consumer.pageFields(),
        }),
      ),
    );

    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([
      ...Array<number>(PER_IP).fill(201),
      ...Array<number>(phones.length - PER_IP).fill(429),
    ]);
    const asked = twilio.lookups.slice(before).map((lookup) => lookup.fields);
    expect(asked.filter((fields) => fields === 'line_type_intelligence')).toHaveLength(PER_IP);
    expect(asked.filter((fields) => fields === 'sim_swap')).toHaveLength(PER_IP);
    // The numbers sent to are the ones whose lookups were asked.
    const sentTo = new Set(
      responses
        .map((response, i) => (response.statusCode === 201 ? phones[i]?.e164 : undefined))
        .filter((phone) => phone !== undefined),
    );
    expect(new Set(twilio.lookups.slice(before).map((lookup) => lookup.phone))).toEqual(sentTo);
  });

  it('an address past its budget asks nothing, and is told as a send past its limit is', async () => {
    const owner = await newOwner(t.app);
    await owner.c.patch(`/api/accounts/${owner.accountId}/lookups`, { lineType: true });
    const form = await createPublicForm(owner);
    const consumer = await newConsumer(t.app, form.publicId);
    const send = () =>
      consumer.sendCode(form.publicId, {
        cellPhone: newCellPhone().typed,
        method: 'sms',
        ...consumer.consentFields(),
        ...consumer.pageFields(),
      });
    for (let i = 0; i < PER_IP; i += 1) expect((await send()).statusCode).toBe(201);
    const before = twilio.lookups.length;
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(twilio.lookups.length).toBe(before);
  });
});
