import { FALLBACK_TIME_ZONE, usableTimeZone } from '@veriform/contracts';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { useTestApp } from '../test-support/app.ts';
import { newOwner } from '../test-support/teams.ts';

/**
 * Year 0000 and time zones in the session API's date filters (found by the fuzz suite, issue #7; made independent of
 * the runtime's ICU data by issue #33 item 13). Its own file, run on both engines (engine-specific-tests.ts): which
 * zones the database knows is the engine's (`pg_timezone_names` of PostgreSQL's or PGlite's own zone data).
 */

const t = useTestApp();

/** Names whose meaning the ICU data decides (legacy, aliases, renamed, POSIX-style): asserted by property only. */
const ICU_DEPENDENT_ZONES = [
  'US/Pacific-New',
  'SystemV/AST4',
  'EST5EDT',
  'CST6CDT',
  'EST',
  'US/Eastern',
  'Asia/Calcutta',
  'Europe/Kiev',
  'Europe/Kyiv',
  'America/Ciudad_Juarez',
  'Pacific/Kanton',
  'GMT',
  'Etc/Unknown',
];

it('year 0000 and time zones the runtime knows but PostgreSQL does not: the filters fall back, never a 500', async () => {
  const owner = await newOwner(t.app);
  const account = `account=${owner.accountId}`;
  for (const query of [
    'created__date__preset=custom&created__date__gte=0000-01-01',
    'created__date__preset=custom&created__date__lte=0000-02-29',
    'tz=US/Pacific-New&created__date__preset=last7d',
    'tz=SystemV/AST4&created__date__preset=today',
    'tz=EST5EDT&created__date__preset=thisMonth',
  ]) {
    for (const path of [
      '/api/verify-forms',
      '/api/verifications',
      '/api/verifications/report',
      '/api/verifications/export-csv',
      '/api/lookups/summary',
    ]) {
      const response = await owner.c.get(`${path}?${account}&${query}`);
      expect(response.statusCode, `${path}?${query}`).toBe(200);
    }
  }
  // Issue #33 item 13: what a legacy name or alias becomes depends on the ICU data of the Node release (Node
  // 24.22.3 no longer makes `EST5EDT` `America/New_York`). What matters holds on any ICU: a zone is either refused
  // (the fallback) or one this database knows, so the query it goes into cannot fail.
  const result = await t.db.db.execute(sql`select name from pg_timezone_names`);
  const databaseZones = new Set((result as unknown as { rows: { name: string }[] }).rows.map((r) => r.name));
  expect(databaseZones.has(FALLBACK_TIME_ZONE)).toBe(true);
  for (const zone of [...ICU_DEPENDENT_ZONES, ...Intl.supportedValuesOf('timeZone')]) {
    const usable = usableTimeZone(zone);
    if (usable !== undefined) expect(databaseZones.has(usable), `${zone} → ${usable}`).toBe(true);
  }
  for (const zone of ICU_DEPENDENT_ZONES) {
    const report = await owner.c.get(`/api/verifications/report?${account}&tz=${encodeURIComponent(zone)}`);
    expect(report.statusCode, zone).toBe(200);
    const tz: string = report.json().range.tz;
    expect(databaseZones.has(tz), `${zone} → ${tz}`).toBe(true);
    expect(tz, zone).toBe(usableTimeZone(zone) ?? FALLBACK_TIME_ZONE);
  }
  // The answers that hold whatever the ICU data: canonical names kept, nonsense refused.
  expect(usableTimeZone('Etc/GMT+5')).toBe('Etc/GMT+5');
  expect(usableTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
  expect(usableTimeZone('UTC')).toBe('UTC');
  expect(usableTimeZone('Nowhere/Special')).toBeUndefined();
});
