import { describe, expect, it } from 'vitest';
import { LookupFailedError, type LookupQuestion, readLookupAnswer } from './lookup.ts';
import { createTestModeLookup, TEST_MODE_CARRIER } from './test-mode-lookup.ts';

/**
 * The test-mode carrier lookup (ADR 42's amendment "test mode asks no provider"): its table by the number's last four
 * digits, whatever the area code, for every kind; bodies Twilio's readers read as real ones, marked `test_mode`. No
 * network and no database: the lookups module's tests (api-v1/reassignment-checks, contactability/reassignment-checks)
 * show that test keys' questions come here and the stand-in hears nothing.
 */

const lookup = createTestModeLookup();
const reassigned = (phone: string): LookupQuestion => ({
  kind: 'reassigned',
  phone,
  lastVerifiedDate: '2026-01-20',
});

describe('the test-mode lookup', () => {
  it('answers a reassigned-number check by the last four digits: …0101 yes, …0103 no data, any other no', async () => {
    const cases = [
      ['+12015550101', 'yes', 'yes'],
      ['+13125550101', 'yes', 'yes'],
      ['+12015550103', 'no_data', 'no_data_available'],
      ['+12015550102', 'no', 'no'],
      ['+14155550104', 'no', 'no'],
      ['+12015550110', 'no', 'no'],
    ] as const;
    for (const [phone, answer, word] of cases) {
      const reply = await lookup.ask(reassigned(phone));
      expect(reply.answer, phone).toEqual({ kind: 'reassigned', answer, errorCode: null });
      expect(reply.body).toMatchObject({
        phone_number: phone,
        test_mode: true,
        reassigned_number: { is_number_reassigned: word, last_verified_date: '2026-01-20', error_code: null },
      });
      // The body kept as the record's answer reads back as the same answer, as a real one does.
      expect(readLookupAnswer('reassigned', reply.body)).toEqual(reply.answer);
    }
  });

  it('…0120 fails every kind with a retryable LookupFailedError: no answer', async () => {
    const questions: LookupQuestion[] = [
      reassigned('+13125550120'),
      { kind: 'lineType', phone: '+13125550120' },
      { kind: 'simSwap', phone: '+13125550120' },
    ];
    for (const question of questions) {
      const failure = await lookup.ask(question).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure, question.kind).toBeInstanceOf(LookupFailedError);
      expect(failure).toMatchObject({ retryable: true });
    }
  });

  it('a line type is mobile and a SIM swap none within 48 hours, each body marked test_mode', async () => {
    const lineType = await lookup.ask({ kind: 'lineType', phone: '+13125550101' });
    expect(lineType.answer).toEqual({
      kind: 'lineType',
      lineType: 'mobile',
      carrierName: TEST_MODE_CARRIER,
      errorCode: null,
    });
    expect(lineType.body).toMatchObject({ test_mode: true, reassigned_number: null, sim_swap: null });
    const simSwap = await lookup.ask({ kind: 'simSwap', phone: '+13125550101' });
    expect(simSwap.answer).toEqual({
      kind: 'simSwap',
      lastSwapAt: null,
      swappedPeriod: 'PT48H',
      swappedInPeriod: false,
      carrierName: TEST_MODE_CARRIER,
      errorCode: null,
    });
    expect(simSwap.body).toMatchObject({ test_mode: true, line_type_intelligence: null });
  });
});
