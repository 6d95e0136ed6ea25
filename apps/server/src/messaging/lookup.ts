import type { CarrierLineType, LookupKind, ReassignedAnswer } from '@veriform/contracts';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { type TwilioClient, twilioClient } from './twilio-client.ts';

/**
 * Twilio Lookup v2 (issue #36): `GET https://lookups.twilio.com/v2/PhoneNumbers/{E.164}?Fields=…`, through the same
 * Twilio client as the code texts (twilio-client.ts: the account's credentials, TWILIO_API_URL for the stand-in). One
 * question per request, so that each answer is kept and billed on its own: `line_type_intelligence`, `sim_swap`, or
 * `reassigned_number` with `LastVerifiedDate=YYYYMMDD`. Answers are read with zod from the shapes Twilio documents
 * (twilio-oai's lookups v2 spec and its examples) into our own types; the body is handed back as received too, since
 * the record of a reassigned-number check is evidence. A request that fails (network, timeout, 429, 5xx, a body we
 * cannot read) throws `LookupFailedError`: an error to retry, never an answer.
 */

/** One question: the number (E.164) and the kind; a reassigned-number check asks about the consent's date. */
export type LookupQuestion =
  | { kind: 'lineType' | 'simSwap'; phone: string }
  | { kind: 'reassigned'; phone: string /** YYYY-MM-DD (UTC) */; lastVerifiedDate: string };

export type LineTypeAnswer = {
  kind: 'lineType';
  /** Null when the carrier told nothing (an error code says why). */
  lineType: CarrierLineType | null;
  carrierName: string | null;
  errorCode: number | null;
};

export type SimSwapAnswer = {
  kind: 'simSwap';
  /** The last swap's instant, where the carrier tells it. */
  lastSwapAt: Date | null;
  /** The period the carrier judged (ISO 8601 duration: `PT48H`) and whether a swap fell in it, where it tells no date. */
  swappedPeriod: string | null;
  swappedInPeriod: boolean | null;
  carrierName: string | null;
  errorCode: number | null;
};

export type ReassignedNumberAnswer = {
  kind: 'reassigned';
  /** `no_data` for Twilio's "no data available", for an empty answer and for anything but a plain yes or no. */
  answer: ReassignedAnswer;
  errorCode: number | null;
};

export type LookupAnswer = LineTypeAnswer | SimSwapAnswer | ReassignedNumberAnswer;

/** An answer, and the provider's body exactly as it came (the evidence). */
export type LookupReply = { answer: LookupAnswer; body: Record<string, unknown> };

export type CarrierLookup = {
  /** twilio: TWILIO_* set; disabled: no Twilio (every lookup throws LookupNotConfiguredError). */
  readonly transport: 'twilio' | 'disabled';
  readonly provider: 'twilio';
  ask(question: LookupQuestion): Promise<LookupReply>;
};

/** A lookup that failed: no answer. `retryable` unless the request itself was refused (a 4xx other than 401, 429). */
export class LookupFailedError extends Error {
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly code: number | undefined;
  constructor(
    message: string,
    options: { retryable: boolean; status?: number; code?: number; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = 'LookupFailedError';
    this.retryable = options.retryable;
    this.status = options.status;
    this.code = options.code;
  }
}

export class LookupNotConfiguredError extends LookupFailedError {
  constructor() {
    super('Carrier lookups cannot be made: TWILIO_* is not set.', { retryable: false });
    this.name = 'LookupNotConfiguredError';
  }
}

/** Twilio's name of each kind's field (the `Fields` value and the answer's key). */
export const TWILIO_LOOKUP_FIELDS = {
  lineType: 'line_type_intelligence',
  simSwap: 'sim_swap',
  reassigned: 'reassigned_number',
} as const satisfies Record<LookupKind, string>;

const LOOKUPS_ORIGIN = 'https://lookups.twilio.com';

/** Twilio's codes are numbers; its reassigned-number answer has been seen typed as a string. */
const errorCodeSchema = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((value) => {
    if (typeof value === 'number') return Number.isInteger(value) ? value : null;
    return value && /^\d{1,9}$/.test(value) ? Number(value) : null;
  });
const text = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

const lineTypeIntelligenceSchema = z.object({
  type: text,
  carrier_name: text,
  mobile_country_code: text,
  mobile_network_code: text,
  error_code: errorCodeSchema,
});

const simSwapSchema = z.object({
  last_sim_swap: z
    .object({
      last_sim_swap_date: text,
      swapped_period: text,
      swapped_in_period: z
        .boolean()
        .nullish()
        .transform((value) => value ?? null),
    })
    .nullish(),
  carrier_name: text,
  mobile_country_code: text,
  mobile_network_code: text,
  error_code: errorCodeSchema,
});

const reassignedNumberSchema = z.object({
  last_verified_date: text,
  is_number_reassigned: text,
  error_code: errorCodeSchema,
});

/** The answer's body: the asked field is an object, or null when Twilio has nothing (an invalid number, no coverage). */
const phoneNumberSchema = z.object({
  phone_number: text,
  valid: z.boolean().nullish(),
  line_type_intelligence: lineTypeIntelligenceSchema.nullish(),
  sim_swap: simSwapSchema.nullish(),
  reassigned_number: reassignedNumberSchema.nullish(),
});

/** Twilio's error body (`{code, message, more_info, status}`). */
const twilioErrorSchema = z.object({ code: z.number().int().optional(), message: z.string().optional() });

const LINE_TYPES: Readonly<Record<string, CarrierLineType>> = {
  mobile: 'mobile',
  landline: 'landline',
  fixedVoip: 'fixed_voip',
  nonFixedVoip: 'non_fixed_voip',
  tollFree: 'toll_free',
  premium: 'premium',
  sharedCost: 'shared_cost',
  personal: 'personal',
  uan: 'uan',
  voicemail: 'voicemail',
  pager: 'pager',
  unknown: 'unknown',
};

/** Twilio's type in our words; a type we do not know yet is `unknown` (the body keeps Twilio's word). */
export function lineTypeOf(twilioType: string | null): CarrierLineType | null {
  if (twilioType === null) return null;
  return Object.hasOwn(LINE_TYPES, twilioType) ? (LINE_TYPES[twilioType] ?? 'unknown') : 'unknown';
}

/** An ISO instant, or null for anything else (the body keeps what came). */
function instantOf(value: string | null): Date | null {
  if (value === null) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Only a plain "yes" or "no" is an answer of that kind; Twilio's `no_data_available`, null or anything else is no data. */
export function reassignedAnswerOf(value: string | null): ReassignedAnswer {
  return value === 'yes' || value === 'no' ? value : 'no_data';
}

/** Reads a 200's body into our answer for the question's kind. */
export function readLookupAnswer(kind: LookupKind, body: unknown): LookupAnswer {
  const parsed = phoneNumberSchema.safeParse(body);
  if (!parsed.success) {
    throw new LookupFailedError(`Twilio Lookup answered a body we cannot read: ${parsed.error.message}`, {
      retryable: true,
      status: 200,
    });
  }
  const data = parsed.data;
  switch (kind) {
    case 'lineType': {
      const field = data.line_type_intelligence;
      return {
        kind,
        lineType: lineTypeOf(field?.type ?? null),
        carrierName: field?.carrier_name ?? null,
        errorCode: field?.error_code ?? null,
      };
    }
    case 'simSwap': {
      const field = data.sim_swap;
      const last = field?.last_sim_swap;
      return {
        kind,
        lastSwapAt: instantOf(last?.last_sim_swap_date ?? null),
        swappedPeriod: last?.swapped_period ?? null,
        swappedInPeriod: last?.swapped_in_period ?? null,
        carrierName: field?.carrier_name ?? null,
        errorCode: field?.error_code ?? null,
      };
    }
    case 'reassigned': {
      const field = data.reassigned_number;
      return {
        kind,
        answer: reassignedAnswerOf(field?.is_number_reassigned ?? null),
        errorCode: field?.error_code ?? null,
      };
    }
  }
}

/** YYYY-MM-DD → Twilio's YYYYMMDD. */
const twilioDate = (isoDate: string) => isoDate.replaceAll('-', '');

/** The request's query string values, in the order Twilio documents them. */
export function lookupParams(question: LookupQuestion): Record<string, string> {
  return {
    Fields: TWILIO_LOOKUP_FIELDS[question.kind],
    ...(question.kind === 'reassigned' ? { LastVerifiedDate: twilioDate(question.lastVerifiedDate) } : {}),
  };
}

/** What the SDK's `request()` answers (its type is `any`): read, not trusted. */
const sdkResponseSchema = z.object({ statusCode: z.number().int(), body: z.unknown() });

/** A JSON body as an object (the SDK parses JSON; a string it could not parse stays a string). */
function objectOf(body: unknown): Record<string, unknown> | undefined {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value))
    : undefined;
}

/** An HTTP answer other than 200: an error, retryable for 401 (an operator fixes the credentials), 429 and 5xx. */
function httpFailure(status: number, body: unknown): LookupFailedError {
  const error = twilioErrorSchema.safeParse(objectOf(body) ?? {});
  const code = error.success ? error.data.code : undefined;
  const message = error.success ? error.data.message : undefined;
  const label = code !== undefined ? `Twilio error ${code} (HTTP ${status})` : `Twilio HTTP ${status}`;
  return new LookupFailedError(`${label}${message ? `: ${message}` : ''}`, {
    retryable: status === 401 || status === 429 || status >= 500,
    status,
    ...(code !== undefined ? { code } : {}),
  });
}

/** No HTTP answer at all: the timeout, or the network. */
function transportFailure(error: unknown, timeoutMs: number): LookupFailedError {
  const code =
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
      ? error.code
      : undefined;
  const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT';
  const detail = error instanceof Error ? error.message : String(error);
  return new LookupFailedError(
    timedOut ? `Twilio Lookup gave no answer within ${timeoutMs} ms` : `Twilio Lookup unreachable: ${detail}`,
    { retryable: true, cause: error },
  );
}

function twilioLookup(settings: NonNullable<Config['twilio']>, timeoutMs: number): CarrierLookup {
  let client: Promise<TwilioClient> | undefined;
  return {
    transport: 'twilio',
    provider: 'twilio',
    async ask(question) {
      let answered: unknown;
      try {
        client ??= twilioClient(settings, timeoutMs);
        answered = await (await client).request({
          method: 'get',
          uri: `${LOOKUPS_ORIGIN}/v2/PhoneNumbers/${encodeURIComponent(question.phone)}`,
          params: lookupParams(question),
          timeout: timeoutMs,
        });
      } catch (error) {
        throw transportFailure(error, timeoutMs);
      }
      const response = sdkResponseSchema.safeParse(answered);
      if (!response.success) {
        throw new LookupFailedError('The Twilio client answered no HTTP response', { retryable: true });
      }
      const { statusCode, body: received } = response.data;
      if (statusCode !== 200) throw httpFailure(statusCode, received);
      const body = objectOf(received);
      if (!body) {
        throw new LookupFailedError('Twilio Lookup answered a body that is no JSON object', {
          retryable: true,
          status: 200,
        });
      }
      return { answer: readLookupAnswer(question.kind, body), body };
    },
  };
}

function disabledLookup(): CarrierLookup {
  return {
    transport: 'disabled',
    provider: 'twilio',
    async ask() {
      throw new LookupNotConfiguredError();
    },
  };
}

/** Twilio's Lookup with the account's credentials, or, without TWILIO_*, a client whose every question fails. */
export function createCarrierLookup(config: Config): CarrierLookup {
  return config.twilio ? twilioLookup(config.twilio, config.lookupTimeoutMs) : disabledLookup();
}
