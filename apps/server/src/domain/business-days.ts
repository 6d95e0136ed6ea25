/**
 * US federal business days (issue #35): a revocation of consent must be honoured within 10 business days (FCC 24-24,
 * 47 CFR 64.1200(a)(10), in force since 11 Apr 2025), and a business day is a weekday that is not a federal holiday.
 *
 * The federal holidays are those of 5 U.S.C. 6103(a), as observed by federal offices (Executive Order 11582, and
 * 5 U.S.C. 6103(b) for the shift): one that falls on a Saturday is observed the Friday before, one on a Sunday the
 * Monday after. So New Year's Day 2028 (a Saturday) is observed on Friday 31 Dec 2027. Juneteenth is one since 2021.
 * Inauguration Day (a holiday in and around Washington, DC only) is not counted.
 *
 * Days are calendar dates (`YYYY-MM-DD`), with no time zone: which day an instant falls on is the caller's question.
 */

/** A calendar date as `YYYY-MM-DD`. */
export type IsoDate = string;

const DAY_MS = 86_400_000;

function utcDate(year: number, month: number, day: number): Date {
  // Date.UTC reads years 0–99 as 1900–1999; setUTCFullYear does not.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

function iso(date: Date): IsoDate {
  return date.toISOString().slice(0, 10);
}

function parseIsoDate(value: IsoDate): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) throw new RangeError(`not a YYYY-MM-DD date: ${value}`);
  const date = utcDate(Number(match[1]), Number(match[2]), Number(match[3]));
  if (iso(date) !== value) throw new RangeError(`not a calendar date: ${value}`);
  return date;
}

/** The `nth` (1-based) `weekday` (0 = Sunday) of a month, or its last when `nth` is -1. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): Date {
  if (nth === -1) {
    const last = utcDate(year, month + 1, 0);
    return new Date(last.getTime() - ((last.getUTCDay() - weekday + 7) % 7) * DAY_MS);
  }
  const first = utcDate(year, month, 1);
  const offset = (weekday - first.getUTCDay() + 7) % 7;
  return new Date(first.getTime() + (offset + (nth - 1) * 7) * DAY_MS);
}

/** A fixed-date holiday moved off the weekend: Saturday → the Friday before, Sunday → the Monday after. */
function observed(date: Date): Date {
  const weekday = date.getUTCDay();
  if (weekday === 6) return new Date(date.getTime() - DAY_MS);
  if (weekday === 0) return new Date(date.getTime() + DAY_MS);
  return date;
}

/** The federal holidays whose observed day falls in `year`, by name, as observed. */
export function federalHolidays(year: number): { name: string; observed: IsoDate }[] {
  const fixed = (month: number, day: number) => observed(utcDate(year, month, day));
  const holidays: { name: string; date: Date }[] = [
    { name: "New Year's Day", date: fixed(1, 1) },
    { name: 'Birthday of Martin Luther King, Jr.', date: nthWeekday(year, 1, 1, 3) },
    { name: "Washington's Birthday", date: nthWeekday(year, 2, 1, 3) },
    { name: 'Memorial Day', date: nthWeekday(year, 5, 1, -1) },
    ...(year >= 2021 ? [{ name: 'Juneteenth National Independence Day', date: fixed(6, 19) }] : []),
    { name: 'Independence Day', date: fixed(7, 4) },
    { name: 'Labor Day', date: nthWeekday(year, 9, 1, 1) },
    { name: 'Columbus Day', date: nthWeekday(year, 10, 1, 2) },
    { name: 'Veterans Day', date: fixed(11, 11) },
    { name: 'Thanksgiving Day', date: nthWeekday(year, 11, 4, 4) },
    { name: 'Christmas Day', date: fixed(12, 25) },
  ];
  // Next year's New Year's Day on a Saturday is observed on this year's 31 December.
  const nextNewYear = utcDate(year + 1, 1, 1);
  if (nextNewYear.getUTCDay() === 6) holidays.push({ name: "New Year's Day", date: observed(nextNewYear) });
  return holidays
    .filter((h) => h.date.getUTCFullYear() === year)
    .map((h) => ({ name: h.name, observed: iso(h.date) }))
    .sort((a, b) => a.observed.localeCompare(b.observed));
}

const holidaysByYear = new Map<number, Set<IsoDate>>();

function holidaySet(year: number): Set<IsoDate> {
  let set = holidaysByYear.get(year);
  if (!set) {
    set = new Set(federalHolidays(year).map((h) => h.observed));
    holidaysByYear.set(year, set);
  }
  return set;
}

/** A weekday that is not a federal holiday as observed. */
export function isBusinessDay(day: IsoDate): boolean {
  const date = parseIsoDate(day);
  const weekday = date.getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidaySet(date.getUTCFullYear()).has(day);
}

/** The date `n` calendar days after `day`. */
export function addCalendarDays(day: IsoDate, n: number): IsoDate {
  return iso(new Date(parseIsoDate(day).getTime() + n * DAY_MS));
}

/**
 * The `n`th business day after `day`, counting from the day after it (`day` itself never counts): received on
 * Wednesday 25 Nov 2026, the 10th business day is Thursday 10 Dec 2026 (Thanksgiving, the weekends left out).
 */
export function addBusinessDays(day: IsoDate, n: number): IsoDate {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`a positive whole number of days, not ${n}`);
  let current = day;
  for (let counted = 0; counted < n; ) {
    current = addCalendarDays(current, 1);
    if (isBusinessDay(current)) counted += 1;
  }
  return current;
}
