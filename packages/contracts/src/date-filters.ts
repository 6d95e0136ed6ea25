import { z } from 'zod';

/** SPEC §9: when the browser's time zone cannot be read. */
export const FALLBACK_TIME_ZONE = 'America/New_York';

export const datePresets = [
  'all',
  'today',
  'yesterday',
  'last3d',
  'last7d',
  'last30d',
  'thisMonth',
  'lastMonth',
  'custom',
] as const;
export type DatePreset = (typeof datePresets)[number];

/**
 * A calendar date `YYYY-MM-DD` that exists. Year 0000 does not in PostgreSQL (1 BC is `0001-01-01 BC`) although it
 * does for JavaScript: refused, or the database refused the query (a 500 on `created__date__gte=0000-01-01`).
 */
export const localDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Invalid date')
  .refine((v) => !v.startsWith('0000'), { message: 'Invalid date' })
  .refine(
    (v) =>
      !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    {
      message: 'Invalid date',
    },
  );

/**
 * An ISO 8601 date-time with an offset (`2026-01-31T09:00:00Z`, `…+05:30`) in the years 0001 to 9999 once read as
 * UTC (issue #33 item 6). Year 0000 exists for JavaScript but not for PostgreSQL, and an offset moves
 * `9999-12-31T23:59:59-14:00` into year 10000 or `0001-01-01T00:00:00+14:00` into year 0: passed on, the database
 * refused the query (a 500 on API v1's `created[gte]`). Refused here as what it is, a date out of range.
 */
export const isoDateTimeSchema = z.iso.datetime({ offset: true }).refine(
  (value) => {
    const time = new Date(value);
    // Not a date-time at all: the format's own message says so, alone.
    if (Number.isNaN(time.getTime())) return true;
    const year = time.getUTCFullYear();
    return year >= 1 && year <= 9999;
  },
  { message: 'Dates must fall within the years 0001 to 9999 (UTC).' },
);

/** `UTC` and the fixed offsets `Etc/GMT±N`. */
const FIXED_ZONE = /^(UTC|Etc\/(UTC|GMT([+-]\d{1,2})?))$/;
/** A zone of one of IANA's geographic areas (`Asia/Kolkata`, `America/Argentina/Salta`). */
const GEOGRAPHIC_ZONE =
  /^(Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)\/[\w+-]+(\/[\w+-]+)?$/;

/**
 * The time zone to compute with, or undefined when there is none. Intl also accepts legacy names and aliases that
 * PostgreSQL's time zone database lacks (`US/Pacific-New`, `SystemV/AST4`): passed on as such they made the database
 * refuse the query (a 500 on the report). A geographic or fixed name Intl accepts is kept as given (the browser's
 * own name, echoed by the report); any other is replaced by its canonical name when that is geographic or fixed
 * (`US/Pacific-New` → `America/Los_Angeles`, `EST5EDT` → `America/New_York`), else refused.
 */
export function usableTimeZone(tz: string): string | undefined {
  const known = usableZones.get(tz);
  if (known !== undefined) return known ?? undefined;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  const usable = (name: string) => FIXED_ZONE.test(name) || GEOGRAPHIC_ZONE.test(name);
  const answer = usable(tz) ? tz : usable(canonical) ? canonical : null;
  remember(usableZones, tz, answer);
  return answer ?? undefined;
}

/**
 * Making an Intl.DateTimeFormat costs ~0.15 ms (it loads the zone's data), a tenth of a whole activity-log request: each
 * zone's answer and formatter are made once. Names differ by letter case only too ('america/new_YORK'), so the maps
 * are bounded: emptied when full.
 */
const usableZones = new Map<string, string | null>();
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= 1000) cache.clear();
  cache.set(key, value);
  return value;
}

/** An IANA time zone name PostgreSQL knows too (usableTimeZone); anything else falls back (never an error). */
export const timeZoneSchema = z
  .string()
  .transform((tz, ctx) => {
    const usable = usableTimeZone(tz);
    if (usable) return usable;
    ctx.addIssue({ code: 'custom', message: 'Unknown time zone' });
    return z.NEVER;
  })
  .catch(FALLBACK_TIME_ZONE);

/**
 * Each zone's day for the UTC minute asked last: the activity log asks "today" on nearly every request, and formatting
 * a date in a zone costs more than the request's other date work (issue #20 item 3).
 */
const dayOfMinute = new Map<string, { minute: number; day: string }>();

/** Today's date in `timeZone`, as `YYYY-MM-DD`. */
export function localToday(now: Date, timeZone: string): string {
  const minute = Math.floor(now.getTime() / 60_000);
  const known = dayOfMinute.get(timeZone);
  if (known && known.minute === minute) return known.day;
  const format =
    dayFormats.get(timeZone) ??
    remember(
      dayFormats,
      timeZone,
      new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
    );
  const day = format.format(now);
  // Kept only when the whole minute is that one day: a zone's midnight falls on a whole minute today, but offsets of
  // the past had seconds (Africa/Monrovia, −0:44:30), and a clock may be set to any instant.
  const start = minute * 60_000;
  if (format.format(start) === day && format.format(start + 59_999) === day)
    remember(dayOfMinute, timeZone, { minute, day });
  return day;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The inclusive range of LOCAL calendar days a preset means (DESIGN §5: presets resolve in the caller's time zone;
 * `created__date__lte` is inclusive). `null` ends are open. The server turns local days into instants in SQL
 * (`(day::timestamp AT TIME ZONE tz)`), which keeps daylight-saving days 23 or 25 hours long, as people live them.
 */
export function localDateRange(
  preset: DatePreset,
  today: string,
  custom: { gte?: string | undefined; lte?: string | undefined } = {},
): { gte: string | null; lte: string | null } {
  switch (preset) {
    case 'all':
      return { gte: null, lte: null };
    case 'today':
      return { gte: today, lte: today };
    case 'yesterday': {
      const y = addDays(today, -1);
      return { gte: y, lte: y };
    }
    case 'last3d':
      return { gte: addDays(today, -2), lte: today };
    case 'last7d':
      return { gte: addDays(today, -6), lte: today };
    case 'last30d':
      return { gte: addDays(today, -29), lte: today };
    case 'thisMonth':
      return { gte: `${today.slice(0, 7)}-01`, lte: today };
    case 'lastMonth': {
      const firstOfThis = `${today.slice(0, 7)}-01`;
      const lastOfPrevious = addDays(firstOfThis, -1);
      return { gte: `${lastOfPrevious.slice(0, 7)}-01`, lte: lastOfPrevious };
    }
    case 'custom':
      return { gte: custom.gte ?? null, lte: custom.lte ?? null };
  }
}

/** A comma-separated list in a query string (`a,b`) or repeated keys, as an array; junk items are dropped. */
export function csvList<T extends z.ZodType>(item: T) {
  return z.union([z.string(), z.array(z.string())]).transform((value): z.output<T>[] =>
    (Array.isArray(value) ? value : value.split(','))
      .map((v) => v.trim())
      .filter((v) => v.length > 0)
      .flatMap((v) => {
        const parsed = item.safeParse(v);
        return parsed.success ? [parsed.data as z.output<T>] : [];
      }),
  );
}
