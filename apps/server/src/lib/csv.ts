import { type SQL, sql } from 'drizzle-orm';

/**
 * The CSV cell guard and quoting, once (issue #34): every export of the app (the activity log's, the attempts', the
 * audit log's) writes its text cells through these, in JavaScript or in SQL, built from the same constant.
 */

/**
 * = + - @, tab, carriage return and the full-width ＝ ＋ － ＠: first characters a spreadsheet may run as a formula (as
 * code points, which SQL's `ascii()` answers on a UTF-8 database).
 */
export const FORMULA_STARTS: readonly number[] = [61, 43, 45, 64, 9, 13, 65309, 65291, 65293, 65312];

/** Whether a spreadsheet may read the text as a formula: it starts with one of FORMULA_STARTS. */
export function startsFormula(text: string): boolean {
  const first = text.codePointAt(0);
  return first !== undefined && FORMULA_STARTS.includes(first);
}

/**
 * RFC 4180 quoting: in double quotes, inner quotes doubled, when the text holds a quote, a comma or a line break;
 * else as it is.
 */
export function csvQuote(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A text cell written in JavaScript, byte for byte as `formulaSafeSql` then `csvQuotedSql` write it in SQL (as
 * csv-stringify's `escape_formulas` wrote it): a leading apostrophe when the value may start a formula, so a
 * spreadsheet shows text instead of running it (E.164 phones included, else Excel reads "+1201…" as a number); then
 * quoted. Null and the empty string are an empty field.
 */
export function csvTextCell(value: string | null): string {
  if (value === null || value === '') return '';
  return csvQuote(startsFormula(value) ? `'${value}` : value);
}

/**
 * `csvTextCell`'s guard in SQL, from the same FORMULA_STARTS: a leading apostrophe when the value starts a formula.
 * `ascii()` is the first character's code point (UTF-8 databases). An empty string becomes NULL, which both of the
 * activity log's writers (COPY and the keyset batches) print as an empty field (COPY would print `""` for one).
 */
export function formulaSafeSql(value: SQL): SQL {
  return sql`(CASE WHEN ascii(${value}) IN (${sql.raw(FORMULA_STARTS.join(', '))}) THEN '''' || ${value} ELSE nullif(${value}, '') END)`;
}

/**
 * `csvQuote` in SQL, as COPY's CSV writer prints a cell (RFC 4180): in double quotes, inner quotes doubled, when it
 * holds a quote, a comma or a line break; NULL as empty.
 */
export function csvQuotedSql(cell: SQL): SQL {
  return sql`(CASE WHEN strpos(${cell}, '"') > 0 OR strpos(${cell}, ',') > 0 OR strpos(${cell}, chr(10)) > 0 OR strpos(${cell}, chr(13)) > 0 THEN '"' || replace(${cell}, '"', '""') || '"' ELSE coalesce(${cell}, '') END)`;
}
