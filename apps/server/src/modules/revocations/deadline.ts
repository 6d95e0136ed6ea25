import { addBusinessDays, addCalendarDays, type IsoDate } from '../../domain/business-days.ts';

/**
 * How long a business has to honour a revocation (issue #35):
 * - `federal`: 10 business days (FCC 24-24, Federal Register doc. 2024-04587 of 5 Mar 2024, 47 CFR 64.1200(a)(10), in force since
 *   11 Apr 2025), counted from the day after it was received, weekends and federal holidays as observed left out;
 * - `florida_stop`: a STOP replied from a Florida number, 15 calendar days (the Florida Telephone Solicitation Act,
 *   s. 501.059 Fla. Stat. as amended by HB 761, 25 May 2023: a consumer must reply STOP before suing, and the sender
 *   then has 15 days), likewise from the day after; the federal rule binds too, so the earlier of the two.
 */
export type DeadlineRule = 'federal' | 'florida_stop';

/** Where the day of receipt is read when the number's own zone is not known: the FCC's (Washington, DC). */
export const DEFAULT_DEADLINE_ZONE = 'America/New_York';

/** The calendar date of an instant in a zone (`en-CA` formats as YYYY-MM-DD). */
export function dateIn(instant: Date, timeZone: string): IsoDate {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

/** The last day on which a revocation received at `receivedAt` is honoured in time (it is overdue the day after). */
export function revocationDeadline(
  receivedAt: Date,
  rule: DeadlineRule,
  timeZone: string = DEFAULT_DEADLINE_ZONE,
): IsoDate {
  const received = dateIn(receivedAt, timeZone);
  const federal = addBusinessDays(received, 10);
  if (rule === 'federal') return federal;
  // Both laws bind a STOP from a Florida number: the earlier day (ISO dates compare as text).
  const florida = addCalendarDays(received, 15);
  return florida < federal ? florida : federal;
}
