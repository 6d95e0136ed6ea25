import type { VerificationDetail } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { keyCall } from '../../test-support/api-v1/client.ts';
import { newReassignmentWorld, setLookups, verifyLiveNumber } from '../../test-support/reassignment.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';
import { LOOKUP_NUMBERS } from '../../test-support/twilio-lookup.ts';

/**
 * A verification's redaction reaches its carrier lookups (issue #36, ADR 42): the line type and SIM swap records its
 * code's request linked and its reassigned-number check's record keep their answers, without the number (masked) or
 * the provider's body (which repeats it); the detail still shows what the carrier said.
 */

const { t, twilio } = useTwilioTestApp();
const { lookups, verificationAttempts } = schema;

describe('a redacted verification’s carrier lookups', () => {
  it('keep their answers, not the number nor the provider’s body', async () => {
    const phone = LOOKUP_NUMBERS.reassignedYes;
    const w = await newReassignmentWorld(t.app, t.clock, [], 'Redacted Lookups Co');
    await setLookups(w, { lineType: true, simSwap: true });
    const attemptId = await verifyLiveNumber(w, twilio, phone);
    const check = await keyCall(t.app, w.liveKey)(
      'POST',
      `/api/v1/verifications/${attemptId}/reassignment-checks`,
    );
    expect(check.statusCode, check.body).toBe(201);

    const digits = phone.slice(2);
    const holdingTheNumber = () =>
      t.db.db
        .select({ id: lookups.id, kind: lookups.kind })
        .from(lookups)
        .where(
          sql`${lookups.accountId} = ${w.owner.accountId} and (${lookups.phone} like ${`%${digits}%`} or ${lookups.answer}::text like ${`%${digits}%`})`,
        );
    expect((await holdingTheNumber()).map((row) => row.kind).sort()).toEqual([
      'lineType',
      'reassigned',
      'simSwap',
    ]);

    const [attempt] = await t.db.db
      .select({ verificationId: verificationAttempts.verificationId })
      .from(verificationAttempts)
      .where(eq(verificationAttempts.id, attemptId));
    const redacted = await w.owner.c.post(
      `/api/verifications/${attempt?.verificationId}/redact?account=${w.owner.accountId}`,
    );
    expect(redacted.statusCode, redacted.body).toBe(200);

    expect(await holdingTheNumber()).toEqual([]);
    const kept = await t.db.db
      .select({
        kind: lookups.kind,
        phone: lookups.phone,
        answer: lookups.answer,
        lineType: lookups.lineType,
        reassigned: lookups.reassigned,
      })
      .from(lookups)
      .where(eq(lookups.accountId, w.owner.accountId));
    expect(kept).toHaveLength(3);
    for (const row of kept)
      expect(row).toMatchObject({ phone: `+1 ••• ••• ${phone.slice(-4)}`, answer: null });
    expect(kept.find((row) => row.kind === 'lineType')?.lineType).toBe('mobile');
    expect(kept.find((row) => row.kind === 'reassigned')?.reassigned).toBe('yes');
    // The redaction's answer (the detail as read after it) still says what the carrier said.
    expect(redacted.json<VerificationDetail>()).toMatchObject({
      carrier: { lineType: 'mobile' },
      reassignment: { answer: 'yes' },
    });
  });
});
