import { z } from 'zod';
import { endpoint, ok } from './endpoints.ts';
import { type CarrierLineType, carrierLineTypes } from './lookups.ts';
import { dashboardSearchSchema, ofQueryAccount } from './verifications.ts';

/**
 * The dashboard's carrier lookups (issue #36 item 5): how many lookups of each kind the account asked in the
 * dashboard's dates, and what they answered. Its own file: the dashboard's range is the verifications contract's, and
 * that one reads lookups.ts (a verification carries its carrier answers).
 */

/**
 * GET /api/lookups/summary?account=…: the dashboard's dates only (preset, custom days, zone), read as the report
 * reads them. The dashboard's other filters pick forms, methods or numbers; lookups are billed per account, whatever
 * asked them, so they do not apply.
 */
export const lookupSummaryQuerySchema = dashboardSearchSchema
  .pick({ created__date__preset: true, created__date__gte: true, created__date__lte: true, tz: true })
  .extend({ account: z.coerce.number().int().positive() });
export type LookupSummaryQuery = z.input<typeof lookupSummaryQuerySchema>;
export type LookupSummaryParams = z.infer<typeof lookupSummaryQuerySchema>;

const n = z.number().int();

/** The carrier's line types in words (the dashboard's counts; a verification's answer). */
export const carrierLineTypeLabels: Record<CarrierLineType, string> = {
  mobile: 'Mobile',
  landline: 'Landline',
  fixed_voip: 'Fixed VoIP',
  non_fixed_voip: 'Non-fixed VoIP',
  toll_free: 'Toll-free',
  premium: 'Premium rate',
  shared_cost: 'Shared cost',
  personal: 'Personal number',
  uan: 'Universal access number',
  voicemail: 'Voicemail',
  pager: 'Pager',
  unknown: 'Unknown',
};

/** A line type answer: the carrier's type, or `no_data` when it told none (an error code: no coverage…). */
export const summaryLineTypes = [...carrierLineTypes, 'no_data'] as const;

/**
 * Live lookups asked of the provider in the range (by when they were asked), per kind: `asked` is every request that
 * came back, answered or `failed` (no answer: the network, a timeout, the provider's 5xx); a reused answer asked
 * nothing and is not counted. Test-mode lookups are not counted (ADR 29: the dashboard is live data).
 */
export const lookupSummarySchema = z.object({
  /** The local days covered, as resolved in `tz` (inclusive): the report's. */
  range: z.object({ gte: z.string(), lte: z.string(), tz: z.string() }),
  lineType: z.object({
    asked: n,
    failed: n,
    /** Answered lookups per type, the most first; types never answered are left out. */
    byType: z.array(z.object({ lineType: z.enum(summaryLineTypes), count: n })),
  }),
  /**
   * SIM swap answers as the code sends judged them (the judgment kept on the verification, with the account's window
   * then): `withinWindow` when a code the answer served was flagged, `outsideWindow` when judged and never flagged,
   * `noData` when the carrier told nothing to judge (an error code, no swap data) or no code was judged by it.
   */
  simSwap: z.object({ asked: n, failed: n, withinWindow: n, outsideWindow: n, noData: n }),
  /** Reassigned-number answers: `noData` is Twilio's "no data available" or an empty answer, never a no. */
  reassigned: z.object({ asked: n, failed: n, yes: n, no: n, noData: n }),
});
export type LookupSummary = z.infer<typeof lookupSummarySchema>;

/** The session API's lookup summary: members who view reports read it, as the dashboard's report. */
export const lookupSummaryEndpoints = {
  summary: endpoint('GET /api/lookups/summary', {
    query: lookupSummaryQuerySchema,
    response: ok(lookupSummarySchema),
    access: ofQueryAccount('viewReports'),
  }),
};
