/**
 * Quiet hours as data (issue #35, "may I contact this number now?"): the federal window of 47 CFR 64.1200(c)(1) and
 * the stricter state windows of the "mini-TCPA" laws (REGULATORY-NOTES §2.4), and the answer for one number at one
 * instant.
 *
 * Every window is in the called party's local time, which we take from the area code (nanp-area-codes.ts): counsel
 * calls that the defensible position, and Florida and Oklahoma presume a number with their area code is a resident's.
 * The federal rule applies to every US number; a state's rule to the numbers of that state's area codes. Where an
 * area code straddles two zones we cannot tell which the person is in, so the number is open only when every window
 * is open in every zone: 850 at 7:30 Eastern is 6:30 Central, and stays closed until 8:00 Central.
 *
 * A rule applies from its `effectiveFrom`, a local date: Texas's window binds from 1 Sep 2025 in Texas, not from the
 * UTC date. Local wall time comes from Intl.DateTimeFormat (the IANA database Node ships), so daylight-saving changes
 * need no code of their own.
 *
 * A number we cannot place (not +1, or a non-geographic or non-US area code) is answered open: no US quiet-hours rule
 * is known to apply. The caller decides what to do with numbers it cannot place.
 */
import { addCalendarDays } from './business-days.ts';
import { locateNumber } from './nanp-area-codes.ts';

/** The version of the rules and of the area-code table. Bump it whenever either changes: answers record it. */
export const CALLING_RULES_VERSION = '2026-11-29';

export type Weekday = 'sun' | 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat';

/** By `Date.prototype.getUTCDay()` order: 0 is Sunday. */
const WEEKDAYS: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** A window of local wall time, 'HH:MM' (24-hour): open from `from` (inclusive) until `until` (exclusive). */
export type DailyWindow = { readonly from: string; readonly until: string };

export type CallingRule = {
  readonly id: string;
  /** 'US' for the federal rule, else the USPS code of the state whose area codes it governs. */
  readonly jurisdiction: string;
  /** The window for each local weekday; null would mean closed all day. */
  readonly windows: Readonly<Record<Weekday, DailyWindow | null>>;
  /** The first local date (YYYY-MM-DD) on which the rule binds: before it, it does not apply. */
  readonly effectiveFrom: string;
  readonly citation: string;
  /** Where the rule is described (a source of REGULATORY-NOTES). */
  readonly source: string;
  /** The rule in a sentence, for people. */
  readonly text: string;
};

function everyDay(window: DailyWindow): Record<Weekday, DailyWindow> {
  return { sun: window, mon: window, tue: window, wed: window, thu: window, fri: window, sat: window };
}

export const callingRules: readonly CallingRule[] = [
  {
    id: 'us-tcpa-quiet-hours',
    jurisdiction: 'US',
    windows: everyDay({ from: '08:00', until: '21:00' }),
    // The FCC's TCPA rules (FCC 92-443) took effect on 20 Dec 1992.
    effectiveFrom: '1992-12-20',
    citation: '47 CFR 64.1200(c)(1)',
    source:
      'https://natlawreview.com/article/new-class-action-threat-tcpa-quiet-hours-and-marketing-messages',
    text: "Telephone solicitations only from 8:00 to 21:00, the called party's local time.",
  },
  {
    id: 'fl-ftsa-quiet-hours',
    jurisdiction: 'FL',
    windows: everyDay({ from: '08:00', until: '20:00' }),
    // SB 1120 (2021) moved the end from 21:00 to 20:00. The hours are in s. 501.616, the Florida Telemarketing Act;
    // s. 501.059 (the FTSA proper) holds the consent rule and the area-code presumption.
    effectiveFrom: '2021-07-01',
    citation: 'Fla. Stat. s. 501.616(6)(a)',
    source: 'https://flsenate.gov/Session/Bill/2021/1120/BillText/er/HTML',
    text: "Florida: commercial telephone solicitations only from 8:00 to 20:00 in the called person's time zone.",
  },
  {
    id: 'ok-otsa-quiet-hours',
    jurisdiction: 'OK',
    windows: everyDay({ from: '08:00', until: '20:00' }),
    effectiveFrom: '2022-11-01',
    citation: 'Okla. Stat. tit. 15, ss. 775C.1-775C.6 (Telephone Solicitation Act of 2022, HB 3168)',
    source:
      'https://www.beneschlaw.com/insight/new-oklahoma-mini-tcpa-law-set-to-go-into-effect-in-november/',
    text: "Oklahoma: commercial telephonic sales calls only from 8:00 to 20:00 at the called party's location.",
  },
  {
    id: 'md-stop-the-spam-calls-quiet-hours',
    jurisdiction: 'MD',
    windows: everyDay({ from: '08:00', until: '20:00' }),
    effectiveFrom: '2024-01-01',
    citation: 'Md. Code, Com. Law s. 14-4502 (Stop the Spam Calls Act of 2023, SB 90)',
    source:
      'https://www.kelleydrye.com/viewpoints/podcasts/ad-law-access/marylands-new-telemarketing-law-now-in-effect',
    text: "Maryland: telephone solicitations, calls or texts, only from 8:00 to 20:00 in the called party's time zone.",
  },
  {
    id: 'tx-sb140-quiet-hours',
    jurisdiction: 'TX',
    windows: {
      sun: { from: '12:00', until: '21:00' },
      mon: { from: '09:00', until: '21:00' },
      tue: { from: '09:00', until: '21:00' },
      wed: { from: '09:00', until: '21:00' },
      thu: { from: '09:00', until: '21:00' },
      fri: { from: '09:00', until: '21:00' },
      sat: { from: '09:00', until: '21:00' },
    },
    // SB 140 made texts "telephone solicitations" from 1 Sep 2025, so the hours of s. 301.051 reach them too.
    effectiveFrom: '2025-09-01',
    citation: 'Tex. Bus. & Com. Code s. 301.051 (as amended by SB 140, 2025)',
    source:
      'https://www.morganlewis.com/pubs/2025/09/texas-telephone-solicitation-law-now-covers-text-messages',
    text: "Texas: telephone solicitations, calls or texts, only from 9:00 to 21:00 Monday to Saturday and from 12:00 to 21:00 on Sunday, the called party's local time.",
  },
];

export type ClosedBy = {
  code: 'quiet_hours' | 'state_quiet_hours';
  ruleId: string;
  text: string;
  citation: string;
};

export type CallingWindowAnswer = {
  /** The zone whose window is used: when the area code spans zones, the one that gives the stricter answer at `at` (closed if any is closed; of the closed ones, the one that opens last). Null for a number we cannot place. */
  timeZone: string | null;
  /** `at` in that zone, ISO 8601 with its offset and no milliseconds, e.g. '2026-11-29T07:59:00-05:00'; null when unplaced. */
  localTime: string | null;
  state: string | null;
  /** True when every applicable rule's window is open at `at` in every zone of the area code (or the number is unplaced). */
  open: boolean;
  /** The rules that close it at `at`: federal → code 'quiet_hours', a state → 'state_quiet_hours'. Empty when open. */
  closedBy: ClosedBy[];
  /** When closed: the earliest instant after `at` at which every window is open in every zone (exact to the minute, on the rule's boundary). Null when open or unplaced. */
  nextOpenAt: Date | null;
};

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** How far ahead nextOpenAt looks. Every rule opens at least once a week; two weeks leaves room for a new one. */
const SEARCH_DAYS = 15;

/** A wall-clock reading of an instant in a zone. */
type Wall = {
  /** The local date, YYYY-MM-DD. */
  date: string;
  weekday: Weekday;
  /** Minutes since local midnight. */
  minutes: number;
  /** The local wall time read as if it were UTC, in ms: `wallMs - instant` is the zone's offset. */
  wallMs: number;
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Date.UTC, without its reading of years 0–99 as 1900–1999. */
function utcMs(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

function wallClock(timeZone: string, instantMs: number): Wall {
  const fields: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instantMs)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  const field = (name: string): number => {
    const value = fields[name];
    if (value === undefined || Number.isNaN(value)) throw new Error(`Intl gave no ${name} for ${timeZone}`);
    return value;
  };
  const year = field('year');
  const month = field('month');
  const day = field('day');
  const hour = field('hour');
  const minute = field('minute');
  const wallMs = utcMs(year, month, day, hour, minute, field('second'));
  const date = new Date(wallMs).toISOString().slice(0, 10);
  return { date, weekday: weekdayOf(date), minutes: hour * 60 + minute, wallMs };
}

function weekdayOf(date: string): Weekday {
  const weekday = WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()];
  if (weekday === undefined) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  return weekday;
}

function minutesOf(hhmm: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(hhmm);
  const minutes = match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
  if (!match || Number(match[2]) > 59 || minutes > 24 * 60)
    throw new RangeError(`not an HH:MM time: ${hhmm}`);
  return minutes;
}

/** Whether `rule` closes the number at this wall time. A rule not yet in force there closes nothing. */
function closes(rule: CallingRule, wall: Wall): boolean {
  if (wall.date < rule.effectiveFrom) return false;
  const window = rule.windows[wall.weekday];
  if (!window) return true;
  return wall.minutes < minutesOf(window.from) || wall.minutes >= minutesOf(window.until);
}

function closingRules(rules: readonly CallingRule[], timeZone: string, instantMs: number): CallingRule[] {
  const wall = wallClock(timeZone, instantMs);
  return rules.filter((rule) => closes(rule, wall));
}

function openEverywhere(
  rules: readonly CallingRule[],
  timeZones: readonly string[],
  instantMs: number,
): boolean {
  return timeZones.every((zone) => closingRules(rules, zone, instantMs).length === 0);
}

/**
 * The first instant whose wall time in `timeZone` is at or after `hhmm` on `date`: the instant the clock shows it,
 * the earlier one when a fall-back shows it twice, or the end of the gap when a spring-forward skips it.
 */
function instantOfWall(timeZone: string, date: string, hhmm: string): number {
  const target = Date.parse(`${date}T00:00:00Z`) + minutesOf(hhmm) * MINUTE_MS;
  // The offsets a day either side bracket the offset at `target` (zones change offset at most once a day).
  const offsets = [target - DAY_MS, target + DAY_MS].map((ms) => wallClock(timeZone, ms).wallMs - ms);
  const guesses = offsets.map((offset) => target - offset);
  const exact = guesses.filter((ms) => wallClock(timeZone, ms).wallMs === target);
  if (exact.length > 0) return Math.min(...exact);
  // In a gap: the first whole minute between the guesses whose wall time has passed `target`.
  let low = Math.min(...guesses);
  let high = Math.max(...guesses);
  while (high - low > MINUTE_MS) {
    const middle = low + Math.floor((high - low) / MINUTE_MS / 2) * MINUTE_MS;
    if (wallClock(timeZone, middle).wallMs >= target) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * The earliest instant after `afterMs` at which no rule closes the number in any of `timeZones`. A number opens only
 * when some window opens, so the candidates are the windows' opening instants in each zone, tried in order.
 */
function nextOpening(
  rules: readonly CallingRule[],
  timeZones: readonly string[],
  afterMs: number,
): number | null {
  // Nearly always within a day. The openings of the next two local days cover every instant of the next 24 hours
  // (give or take a daylight-saving hour), so one found there is the earliest; else search the whole range.
  const soon = openingWithin(rules, timeZones, afterMs, 2);
  if (soon !== null && soon < afterMs + DAY_MS) return soon;
  return openingWithin(rules, timeZones, afterMs, SEARCH_DAYS);
}

function openingWithin(
  rules: readonly CallingRule[],
  timeZones: readonly string[],
  afterMs: number,
  days: number,
): number | null {
  const candidates = new Set<number>();
  for (const zone of timeZones) {
    const today = wallClock(zone, afterMs).date;
    for (let offset = -1; offset <= days; offset += 1) {
      const date = addCalendarDays(today, offset);
      for (const rule of rules) {
        const window = rule.windows[weekdayOf(date)];
        if (!window) continue;
        const opening = instantOfWall(zone, date, window.from);
        if (opening > afterMs) candidates.add(opening);
      }
    }
  }
  for (const candidate of [...candidates].sort((a, b) => a - b)) {
    if (openEverywhere(rules, timeZones, candidate)) return candidate;
  }
  return null;
}

/** ISO 8601 local time with the zone's offset at that instant, to the second. */
function isoLocal(timeZone: string, instantMs: number): string {
  const wall = wallClock(timeZone, instantMs);
  const offsetMinutes = Math.round((wall.wallMs - Math.floor(instantMs / 1000) * 1000) / MINUTE_MS);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = new Date(wall.wallMs).toISOString().slice(0, 19);
  return `${local}${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

const UNPLACED: CallingWindowAnswer = {
  timeZone: null,
  localTime: null,
  state: null,
  open: true,
  closedBy: [],
  nextOpenAt: null,
};

/**
 * May a telephone solicitation reach `e164` at `at`? Applies the federal window and the window of the area code's
 * state, in every zone of the area code; see CallingWindowAnswer for the fields.
 */
export function callingWindowAt(e164: string, at: Date): CallingWindowAnswer {
  const atMs = at.getTime();
  if (Number.isNaN(atMs)) throw new RangeError('not a valid instant');
  const place = locateNumber(e164);
  if (!place) return { ...UNPLACED, closedBy: [] };
  const rules = callingRules.filter(
    (rule) => rule.jurisdiction === 'US' || rule.jurisdiction === place.state,
  );
  const [primaryZone] = place.timeZones;

  const closedZones = place.timeZones
    .map((zone) => ({ zone, closing: closingRules(rules, zone, atMs) }))
    .filter((entry) => entry.closing.length > 0);
  if (closedZones.length === 0) {
    // Every zone gives the same answer: name the one that covers most of the area code.
    return {
      timeZone: primaryZone,
      localTime: isoLocal(primaryZone, atMs),
      state: place.state,
      open: true,
      closedBy: [],
      nextOpenAt: null,
    };
  }

  // Of the closed zones, the one whose own windows open last (a zone that never opens counts as last of all).
  let stricter = closedZones[0]?.zone ?? primaryZone;
  let stricterOpening = -Infinity;
  for (const { zone } of closedZones) {
    const opening = nextOpening(rules, [zone], atMs) ?? Infinity;
    if (opening > stricterOpening) {
      stricter = zone;
      stricterOpening = opening;
    }
  }
  const closing = new Set(closedZones.flatMap((entry) => entry.closing));
  const nextOpenMs = nextOpening(rules, place.timeZones, atMs);
  return {
    timeZone: stricter,
    localTime: isoLocal(stricter, atMs),
    state: place.state,
    open: false,
    closedBy: rules
      .filter((rule) => closing.has(rule))
      .map(
        (rule): ClosedBy => ({
          code: rule.jurisdiction === 'US' ? 'quiet_hours' : 'state_quiet_hours',
          ruleId: rule.id,
          text: rule.text,
          citation: rule.citation,
        }),
      ),
    nextOpenAt: nextOpenMs === null ? null : new Date(nextOpenMs),
  };
}
