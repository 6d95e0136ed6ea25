/**
 * The Twilio stand-in's Lookup v2 (`GET /v2/PhoneNumbers/{number}?Fields=…[&LastVerifiedDate=YYYYMMDD]`, issue #36),
 * served by twilio.ts beside the Messages API. What it answers is chosen by the number asked, as Twilio's own "magic
 * numbers" do, so a test (or a browser journey) picks a case by the number it types. Bodies follow the shapes of
 * Twilio's lookups v2 spec (twilio-oai) and its examples.
 *
 * | number        | answer                                                                                      |
 * | ------------- | ------------------------------------------------------------------------------------------- |
 * | +12015550101  | reassigned_number: `yes`                                                                    |
 * | +12015550102  | reassigned_number: `no`                                                                     |
 * | +12015550103  | reassigned_number: `no_data_available` (no disconnect data for that date)                   |
 * | +12015550104  | reassigned_number: null (an empty answer), every other field null too                        |
 * | +12015550105  | reassigned_number: `is_number_reassigned` null with error_code 60607 (unsupported country)   |
 * | +12015550110  | every field: error_code 60600 (unprovisioned or out of coverage), nothing else              |
 * | +12015550111  | every field: error_code 60606 (package not enabled for the account)                         |
 * | +12015550112  | sim_swap: error_code 60620 (incomplete answer from the carrier)                             |
 * | +12015550120  | HTTP 500, Twilio error 20500                                                                |
 * | +12015550121  | HTTP 429, Twilio error 20429                                                                |
 * | +12015550122  | HTTP 404, Twilio error 20404 (a refused request: not to retry)                              |
 * | +12015550123  | the default answers, after `slowMs` (5 s unless the test sets it): a slow provider          |
 * | +12015550124  | HTTP 200 with a body that is no JSON                                                        |
 * | +12015550130  | sim_swap: last swap yesterday (`now` − 1 day), swapped in its period (PT48H)                 |
 * | +12015550131  | sim_swap: last swap a year ago (`now` − 365 days), not in its period                        |
 * | +12015550132  | sim_swap: no date, swapped in its period (PT24H): a carrier that tells no date              |
 * | +12015550150… | line_type_intelligence: one type each, in `LOOKUP_LINE_TYPE_NUMBERS`' order (0150 mobile …  |
 * | …+12015550162 | 0161 unknown), and 0162 a type Twilio may add later (`satellite`)                           |
 * | any other     | line type `mobile` (carrier "Stand-in Wireless"), no SIM swap in PT48H, reassigned `no`     |
 *
 * Every request needs the account's Basic auth, like the Messages API (401, Twilio error 20003, otherwise).
 */

export const LOOKUP_NUMBERS = {
  reassignedYes: '+12015550101',
  reassignedNo: '+12015550102',
  reassignedNoData: '+12015550103',
  reassignedEmpty: '+12015550104',
  reassignedNullWithError: '+12015550105',
  errorNoCoverage: '+12015550110',
  errorPackageNotEnabled: '+12015550111',
  simSwapIncomplete: '+12015550112',
  serverError: '+12015550120',
  tooManyRequests: '+12015550121',
  notFound: '+12015550122',
  slow: '+12015550123',
  notJson: '+12015550124',
  simSwapYesterday: '+12015550130',
  simSwapYearAgo: '+12015550131',
  simSwapPeriodOnly: '+12015550132',
} as const;

/** Twilio's line types, each answered for one number (+12015550150 onwards), then one Twilio may add later. */
export const LOOKUP_LINE_TYPE_NUMBERS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    'mobile',
    'landline',
    'fixedVoip',
    'nonFixedVoip',
    'tollFree',
    'premium',
    'sharedCost',
    'personal',
    'uan',
    'voicemail',
    'pager',
    'unknown',
    'satellite',
  ].map((type, index) => [type, `+120155501${50 + index}`]),
);

export const STAND_IN_CARRIER = 'Stand-in Wireless';

export type LookupAnswerOfStandIn =
  | { status: number; body: Record<string, unknown> }
  | { status: 200; text: string };

/** What the stand-in received: the number, the query exactly, and what it answered. */
export type ReceivedLookup = {
  phone: string;
  fields: string | null;
  lastVerifiedDate: string | null;
  status: number;
};

const DAY_MS = 24 * 60 * 60 * 1000;
const FIELDS = ['line_type_intelligence', 'sim_swap', 'reassigned_number'] as const;
type Field = (typeof FIELDS)[number];

const error = (status: number, code: number, message: string) => ({
  status,
  body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});

const lineTypeByNumber = new Map(
  Object.entries(LOOKUP_LINE_TYPE_NUMBERS).map(([type, phone]) => [phone, type]),
);

function lineTypeIntelligence(phone: string): Record<string, unknown> {
  const type = lineTypeByNumber.get(phone) ?? 'mobile';
  const carrierKnown = ['mobile', 'landline', 'fixedVoip', 'nonFixedVoip'].includes(type);
  return {
    error_code: null,
    mobile_country_code: type === 'mobile' ? '310' : null,
    mobile_network_code: type === 'mobile' ? '260' : null,
    carrier_name: carrierKnown ? STAND_IN_CARRIER : null,
    type,
  };
}

function simSwap(phone: string, now: Date): Record<string, unknown> {
  const swap = (date: Date | null, period: string, inPeriod: boolean) => ({
    last_sim_swap: {
      last_sim_swap_date: date ? date.toISOString() : null,
      swapped_period: period,
      swapped_in_period: inPeriod,
    },
    carrier_name: STAND_IN_CARRIER,
    mobile_country_code: '310',
    mobile_network_code: '260',
    error_code: null,
  });
  if (phone === LOOKUP_NUMBERS.simSwapYesterday) return swap(new Date(now.getTime() - DAY_MS), 'PT48H', true);
  if (phone === LOOKUP_NUMBERS.simSwapYearAgo)
    return swap(new Date(now.getTime() - 365 * DAY_MS), 'PT48H', false);
  if (phone === LOOKUP_NUMBERS.simSwapPeriodOnly) return swap(null, 'PT24H', true);
  return swap(null, 'PT48H', false);
}

/** `YYYYMMDD` → `YYYY-MM-DD`, as Twilio echoes it. */
const echoedDate = (value: string | null) =>
  value && /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}` : null;

function reassignedNumber(phone: string, lastVerifiedDate: string | null): Record<string, unknown> | null {
  const answer = (isNumberReassigned: string | null, errorCode: number | null = null) => ({
    last_verified_date: echoedDate(lastVerifiedDate),
    is_number_reassigned: isNumberReassigned,
    error_code: errorCode,
  });
  switch (phone) {
    case LOOKUP_NUMBERS.reassignedYes:
      return answer('yes');
    case LOOKUP_NUMBERS.reassignedNoData:
      return answer('no_data_available');
    case LOOKUP_NUMBERS.reassignedEmpty:
      return null;
    case LOOKUP_NUMBERS.reassignedNullWithError:
      return answer(null, 60607);
    default:
      return answer('no');
  }
}

/** A field that only says why it could not answer. */
function errorOnly(field: Field, code: number): Record<string, unknown> {
  if (field === 'line_type_intelligence')
    return {
      error_code: code,
      mobile_country_code: null,
      mobile_network_code: null,
      carrier_name: null,
      type: null,
    };
  if (field === 'sim_swap')
    return {
      last_sim_swap: null,
      carrier_name: null,
      mobile_country_code: null,
      mobile_network_code: null,
      error_code: code,
    };
  return { last_verified_date: null, is_number_reassigned: null, error_code: code };
}

function fieldAnswer(field: Field, phone: string, lastVerifiedDate: string | null, now: Date) {
  if (phone === LOOKUP_NUMBERS.errorNoCoverage) return errorOnly(field, 60600);
  if (phone === LOOKUP_NUMBERS.errorPackageNotEnabled) return errorOnly(field, 60606);
  if (phone === LOOKUP_NUMBERS.simSwapIncomplete && field === 'sim_swap') return errorOnly(field, 60620);
  if (phone === LOOKUP_NUMBERS.reassignedEmpty) return null;
  switch (field) {
    case 'line_type_intelligence':
      return lineTypeIntelligence(phone);
    case 'sim_swap':
      return simSwap(phone, now);
    case 'reassigned_number':
      return reassignedNumber(phone, lastVerifiedDate);
  }
}

/**
 * The answer to `GET /v2/PhoneNumbers/{phone}` with the query given (already authenticated), as of `now`. An unknown
 * field or a malformed `LastVerifiedDate` is refused with Twilio's "Invalid parameter" (400, 60200).
 */
export function lookupAnswer(phone: string, query: URLSearchParams, now: Date): LookupAnswerOfStandIn {
  if (phone === LOOKUP_NUMBERS.serverError) return error(500, 20500, 'Internal Server Error');
  if (phone === LOOKUP_NUMBERS.tooManyRequests) return error(429, 20429, 'Too Many Requests');
  if (phone === LOOKUP_NUMBERS.notFound)
    return error(404, 20404, `The requested resource /v2/PhoneNumbers/${phone} was not found`);
  if (phone === LOOKUP_NUMBERS.notJson) return { status: 200, text: '<html>Service Unavailable</html>' };
  const fields = (query.get('Fields') ?? '').split(',').filter(Boolean);
  const unknown = fields.find((field) => !FIELDS.some((known) => known === field));
  if (unknown) return error(400, 60200, `Invalid parameter: Fields (${unknown})`);
  const lastVerifiedDate = query.get('LastVerifiedDate');
  if (lastVerifiedDate !== null && !/^\d{8}$/.test(lastVerifiedDate))
    return error(400, 60200, 'Invalid parameter: LastVerifiedDate');
  const asked = (field: Field) =>
    fields.includes(field) ? fieldAnswer(field, phone, lastVerifiedDate, now) : null;
  return {
    status: 200,
    body: {
      calling_country_code: '1',
      country_code: 'US',
      phone_number: phone,
      national_format: `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`,
      valid: true,
      validation_errors: [],
      caller_name: null,
      sim_swap: asked('sim_swap'),
      call_forwarding: null,
      live_activity: null,
      line_type_intelligence: asked('line_type_intelligence'),
      identity_match: null,
      reassigned_number: asked('reassigned_number'),
      sms_pumping_risk: null,
      phone_number_quality_score: null,
      url: `https://lookups.twilio.com/v2/PhoneNumbers/${phone}`,
    },
  };
}
