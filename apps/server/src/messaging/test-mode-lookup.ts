import {
  type CarrierLookup,
  LookupFailedError,
  type LookupQuestion,
  readLookupAnswer,
  TWILIO_LOOKUP_FIELDS,
} from './lookup.ts';

/**
 * Carrier lookups in test mode (issue #36, ADR 42's amendment "test mode asks no provider"): a question asked with a
 * test key (a test verification's reassigned-number check, the test-mode verdict's due checks) is answered here, by
 * the number's last four digits, and asks no one. A test verification proves nothing about a real subscriber (an
 * account registers any number as a test number and its fixed code approves it), so its questions must never reach
 * the provider with the account's live credentials: that would let a test key learn a real person's carrier data and
 * spend the account's money. As Stripe's test cards, documented values choose the outcome:
 *
 * | number ends in | reassigned-number check                                            |
 * | -------------- | ------------------------------------------------------------------ |
 * | …0101          | `yes`: reassigned since the consent's date                         |
 * | …0103          | Twilio's `no_data_available` (read as `no_data`, never `no`)       |
 * | …0120          | no answer: `LookupFailedError`, retryable (API v1: 503 `lookup_failed`) |
 * | any other      | `no`                                                               |
 *
 * A line type is `mobile` and a SIM swap none within 48 hours (test numbers never ask them at send time; these answer
 * a caller that asks anyway), …0120 failing for every kind. The body is shaped as Twilio's (read by the same
 * `readLookupAnswer`, kept as the record's answer like a real one) and says `"test_mode": true`.
 *
 * This is product code: the one home of the test-mode table. The Twilio stand-in of the tests
 * (test-support/twilio-lookup.ts) is another thing, the live provider's stand-in, and answers live lookups only.
 */

export const TEST_MODE_CARRIER = 'Veriform Test Mode';

/** The documented endings and what each answers (the docs and ADR 42 list the same). */
export const TEST_MODE_LOOKUP_ENDINGS = {
  reassignedYes: '0101',
  reassignedNoData: '0103',
  failure: '0120',
} as const;

const REASSIGNED_BY_ENDING: Readonly<Record<string, string>> = {
  [TEST_MODE_LOOKUP_ENDINGS.reassignedYes]: 'yes',
  [TEST_MODE_LOOKUP_ENDINGS.reassignedNoData]: 'no_data_available',
};

/** The asked field's answer (a reassigned check echoes its `LastVerifiedDate` as Twilio does: YYYY-MM-DD). */
function fieldOf(question: LookupQuestion): Record<string, unknown> {
  switch (question.kind) {
    case 'lineType':
      return {
        error_code: null,
        mobile_country_code: null,
        mobile_network_code: null,
        carrier_name: TEST_MODE_CARRIER,
        type: 'mobile',
      };
    case 'simSwap':
      return {
        last_sim_swap: { last_sim_swap_date: null, swapped_period: 'PT48H', swapped_in_period: false },
        carrier_name: TEST_MODE_CARRIER,
        mobile_country_code: null,
        mobile_network_code: null,
        error_code: null,
      };
    case 'reassigned':
      return {
        last_verified_date: question.lastVerifiedDate,
        is_number_reassigned: REASSIGNED_BY_ENDING[question.phone.slice(-4)] ?? 'no',
        error_code: null,
      };
  }
}

/** A Twilio-shaped body for the question, marked `test_mode`. */
function bodyOf(question: LookupQuestion): Record<string, unknown> {
  const field = TWILIO_LOOKUP_FIELDS[question.kind];
  return {
    phone_number: question.phone,
    valid: true,
    validation_errors: [],
    caller_name: null,
    line_type_intelligence: null,
    sim_swap: null,
    reassigned_number: null,
    [field]: fieldOf(question),
    test_mode: true,
  };
}

/** The carrier lookup of test mode: answers from the table above, asking no one. */
export function createTestModeLookup(): CarrierLookup {
  return {
    transport: 'twilio',
    provider: 'twilio',
    async ask(question) {
      if (question.phone.endsWith(TEST_MODE_LOOKUP_ENDINGS.failure)) {
        throw new LookupFailedError(
          `Test mode: numbers ending in ${TEST_MODE_LOOKUP_ENDINGS.failure} simulate a provider that did not answer`,
          { retryable: true, status: 503 },
        );
      }
      const body = bodyOf(question);
      return { answer: readLookupAnswer(question.kind, body), body };
    },
  };
}
