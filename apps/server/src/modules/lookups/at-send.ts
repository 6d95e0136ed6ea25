import { type CarrierLineType, LOOKUP_SIM_SWAP_WINDOW_DAYS } from '@veriform/contracts';
import { AppError } from '../../lib/errors.ts';
import { LookupFailedError, type SimSwapAnswer } from '../../messaging/lookup.ts';
import type { LookupRecord, Lookups } from './service.ts';

/**
 * The carrier lookups asked when a code is requested (issue #36 item 1, ADR 42 "Lookups when a code is requested"):
 * the line type and the last SIM swap of the number a text goes to, when the account turned them on. The attempt's
 * store (modules/attempts, issue) calls `askAtSend` for both doors, hosted page and API v1, and links what came back
 * to the attempt it creates. A lookup that fails, that the monthly ceiling refuses, or that has not answered within
 * the send's bound, tells nothing: the code goes all the same (fail open).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The account's settings a code send needs, read with its form (no round trip of their own); null: both off. */
export type LookupsAtSend = {
  lineType: boolean;
  simSwap: boolean;
  simSwapWindowDays: number;
  refuseOnSimSwap: boolean;
};

/** The lookup_settings columns as a LEFT JOIN reads them (all null: the account has no row, everything off). */
export type LookupSettingsColumns = {
  lookupLineType: boolean | null;
  lookupSimSwap: boolean | null;
  lookupSimSwapWindowDays: number | null;
  lookupRefuseOnSimSwap: boolean | null;
};

export function lookupsAtSendOf(columns: LookupSettingsColumns): LookupsAtSend | null {
  if (columns.lookupLineType !== true && columns.lookupSimSwap !== true) return null;
  return {
    lineType: columns.lookupLineType === true,
    simSwap: columns.lookupSimSwap === true,
    simSwapWindowDays: columns.lookupSimSwapWindowDays ?? LOOKUP_SIM_SWAP_WINDOW_DAYS.default,
    refuseOnSimSwap: columns.lookupRefuseOnSimSwap === true,
  };
}

/** An ISO 8601 duration as Twilio writes a swap's period (`PT48H`, `P7D`, `P1W`…), in milliseconds; null: unreadable. */
function durationMs(period: string | null): number | null {
  const match = period?.match(/^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/);
  if (!match || period === 'P' || period?.endsWith('T')) return null;
  const [weeks, days, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0));
  return (
    ((((weeks ?? 0) * 7 + (days ?? 0)) * 24 + (hours ?? 0)) * 60 + (minutes ?? 0)) * 60_000 +
    (seconds ?? 0) * 1000
  );
}

/**
 * Whether the number's last SIM swap falls within `windowDays` days before `now`: by its date where the carrier tells
 * it; else true when the carrier says a swap fell in a period no longer than the window (a longer or unreadable
 * period, or no swap in it, proves no swap within the window: false). Null when the carrier told nothing at all (an
 * error code, no `last_sim_swap`): nothing is judged.
 */
export function simSwapWithinWindow(answer: SimSwapAnswer, windowDays: number, now: Date): boolean | null {
  const windowMs = windowDays * DAY_MS;
  if (answer.lastSwapAt) return now.getTime() - answer.lastSwapAt.getTime() <= windowMs;
  if (answer.swappedInPeriod === null) return null;
  if (!answer.swappedInPeriod) return false;
  const period = durationMs(answer.swappedPeriod);
  return period !== null && period <= windowMs;
}

/** What a code send learnt from the carrier: the records to link, the line type and the SIM swap's judgment. */
export type CarrierAtSend = {
  lineTypeLookupId: number | null;
  /** The carrier's line type; null when it told nothing (not asked, failed, an error code). */
  lineType: CarrierLineType | null;
  /** The carrier's name as the line type answer gave it. */
  carrierName: string | null;
  simSwapLookupId: number | null;
  /**
   * The judgment, the window it used and the last swap's instant where the carrier told it; null when not asked,
   * failed, or the carrier told nothing to judge.
   */
  simSwap: { withinWindow: boolean; windowDays: number; lastSwapAt: Date | null } | null;
};

export const NOTHING_ASKED: CarrierAtSend = {
  lineTypeLookupId: null,
  lineType: null,
  carrierName: null,
  simSwapLookupId: null,
  simSwap: null,
};

/** What a send goes on without: the provider failed (timeout, 5xx, 429, unreadable) or the ceiling is reached. */
function tellsNothing(error: unknown): boolean {
  return (
    error instanceof LookupFailedError ||
    (error instanceof AppError && error.code === 'lookup_ceiling_reached')
  );
}

/**
 * The lookup's record, or null when it failed or has not answered within `timeoutMs` (then it goes on without this
 * send: its record may still land, and the day's reuse answers the next send from it).
 */
async function bounded(ask: Promise<LookupRecord>, timeoutMs: number): Promise<LookupRecord | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answer = ask.catch((error: unknown) => {
    if (tellsNothing(error)) return null;
    throw error;
  });
  // An abandoned lookup that fails later must not be an unhandled rejection.
  answer.catch(() => undefined);
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks the lookups the settings turn on, in parallel, for a text to `phone` (live: test numbers and test keys never
 * come here), each bounded by `timeoutMs`, and judges the SIM swap by the account's window as of `now`.
 */
export async function askAtSend(
  lookups: Lookups,
  question: { accountId: number; phone: string; settings: LookupsAtSend; timeoutMs: number; now: Date },
): Promise<CarrierAtSend> {
  const { accountId, phone, settings, timeoutMs, now } = question;
  const [line, swap] = await Promise.all([
    settings.lineType ? bounded(lookups.lookUp(accountId, 'lineType', phone), timeoutMs) : null,
    settings.simSwap ? bounded(lookups.lookUp(accountId, 'simSwap', phone), timeoutMs) : null,
  ]);
  const lineAnswer = line?.answer.kind === 'lineType' ? line.answer : null;
  const swapAnswer = swap?.answer.kind === 'simSwap' ? swap.answer : null;
  const withinWindow = swapAnswer ? simSwapWithinWindow(swapAnswer, settings.simSwapWindowDays, now) : null;
  return {
    lineTypeLookupId: line?.id ?? null,
    lineType: lineAnswer?.lineType ?? null,
    carrierName: lineAnswer?.carrierName ?? null,
    simSwapLookupId: swap?.id ?? null,
    simSwap:
      withinWindow === null
        ? null
        : {
            withinWindow,
            windowDays: settings.simSwapWindowDays,
            lastSwapAt: swapAnswer?.lastSwapAt ?? null,
          },
  };
}
