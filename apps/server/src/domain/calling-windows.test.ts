import { describe, expect, it } from 'vitest';
import {
  CALLING_RULES_VERSION,
  type CallingWindowAnswer,
  callingRules,
  callingWindowAt,
} from './calling-windows.ts';
import { US_AREA_CODES } from './nanp-area-codes.ts';

const NEW_YORK = '+12125550123';
const CHICAGO = '+13125550123';
const DENVER = '+13035550123';
const PHOENIX = '+16025550123';
const LOS_ANGELES = '+14155550123';
const ANCHORAGE = '+19075550123';
const HONOLULU = '+18085550123';
const SAN_JUAN = '+17875550123';
const MIAMI = '+13055550123';
const OKLAHOMA_CITY = '+14055550123';
const BALTIMORE = '+14105550123';
const DALLAS = '+12145550123';
const EL_PASO = '+19155550123';
const PENSACOLA = '+18505550123';
const EUGENE = '+15415550123';

const FEDERAL = 'us-tcpa-quiet-hours';
const ids = (answer: CallingWindowAnswer) => answer.closedBy.map((c) => c.ruleId);
const at = (iso: string) => new Date(iso);

describe('the calling rules as data', () => {
  it('has a version, and each rule is well formed and sourced', () => {
    expect(CALLING_RULES_VERSION).toBe('2026-11-29');
    expect(callingRules.map((r) => [r.id, r.jurisdiction, r.effectiveFrom])).toEqual([
      [FEDERAL, 'US', '1992-12-20'],
      ['fl-ftsa-quiet-hours', 'FL', '2021-07-01'],
      ['ok-otsa-quiet-hours', 'OK', '2022-11-01'],
      ['md-stop-the-spam-calls-quiet-hours', 'MD', '2024-01-01'],
      ['tx-sb140-quiet-hours', 'TX', '2025-09-01'],
    ]);
    const states = new Set(Object.values(US_AREA_CODES).map((a) => a.state));
    for (const rule of callingRules) {
      expect(rule.jurisdiction === 'US' || states.has(rule.jurisdiction), rule.id).toBe(true);
      expect(new Date(`${rule.effectiveFrom}T00:00:00Z`).toISOString().slice(0, 10)).toBe(rule.effectiveFrom);
      expect(rule.source, rule.id).toMatch(/^https:\/\//);
      expect(rule.citation.length, rule.id).toBeGreaterThan(0);
      expect(rule.text.length, rule.id).toBeGreaterThan(0);
      for (const window of Object.values(rule.windows)) {
        if (!window) continue;
        expect(window.from, rule.id).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
        expect(window.until, rule.id).toMatch(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/);
        expect(window.from < window.until, rule.id).toBe(true);
      }
    }
  });
});

describe('the federal window, 8:00 to 21:00 in every zone', () => {
  // Monday 30 Nov 2026, standard time everywhere.
  const zones = [
    ['Eastern', NEW_YORK, 'America/New_York', '-05:00'],
    ['Central', CHICAGO, 'America/Chicago', '-06:00'],
    ['Mountain', DENVER, 'America/Denver', '-07:00'],
    ['Arizona', PHOENIX, 'America/Phoenix', '-07:00'],
    ['Pacific', LOS_ANGELES, 'America/Los_Angeles', '-08:00'],
    ['Hawaii', HONOLULU, 'Pacific/Honolulu', '-10:00'],
    ['Puerto Rico', SAN_JUAN, 'America/Puerto_Rico', '-04:00'],
  ] as const;

  for (const [name, number, zone, offset] of zones) {
    it(`${name}: closed at 07:59, open at 08:00 and 20:59, closed at 21:00`, () => {
      const local = (time: string, day = '2026-11-30') => at(`${day}T${time}:00${offset}`);
      const early = callingWindowAt(number, local('07:59'));
      expect(early).toMatchObject({ timeZone: zone, localTime: `2026-11-30T07:59:00${offset}`, open: false });
      expect(early.closedBy).toEqual([
        {
          code: 'quiet_hours',
          ruleId: FEDERAL,
          text: "Telephone solicitations only from 8:00 to 21:00, the called party's local time.",
          citation: '47 CFR 64.1200(c)(1)',
        },
      ]);
      expect(early.nextOpenAt).toEqual(local('08:00'));

      for (const time of ['08:00', '20:59']) {
        expect(callingWindowAt(number, local(time)), time).toMatchObject({
          timeZone: zone,
          localTime: `2026-11-30T${time}:00${offset}`,
          open: true,
          closedBy: [],
          nextOpenAt: null,
        });
      }

      const late = callingWindowAt(number, local('21:00'));
      expect(late.open).toBe(false);
      expect(ids(late)).toEqual([FEDERAL]);
      expect(late.nextOpenAt).toEqual(local('08:00', '2026-12-01'));
    });
  }

  it('Arizona keeps the same hours in summer, when Denver is an hour ahead of it', () => {
    expect(callingWindowAt(PHOENIX, at('2026-07-15T07:59:00-07:00')).open).toBe(false);
    expect(callingWindowAt(PHOENIX, at('2026-07-15T08:00:00-07:00'))).toMatchObject({
      open: true,
      localTime: '2026-07-15T08:00:00-07:00',
    });
    // 08:00 MST in Phoenix is 09:00 MDT in Denver; 07:30 MDT in Denver is 06:30 in Phoenix.
    expect(callingWindowAt(DENVER, at('2026-07-15T08:00:00-06:00'))).toMatchObject({
      open: true,
      localTime: '2026-07-15T08:00:00-06:00',
    });
    expect(callingWindowAt(PHOENIX, at('2026-07-15T07:30:00-06:00')).open).toBe(false);
  });

  it('works to the second: 20:59:59 is open, 07:59:59 is not', () => {
    expect(callingWindowAt(NEW_YORK, at('2026-11-30T20:59:59.999-05:00')).open).toBe(true);
    const early = callingWindowAt(NEW_YORK, at('2026-11-30T07:59:59.500-05:00'));
    expect(early).toMatchObject({ open: false, localTime: '2026-11-30T07:59:59-05:00' });
    expect(early.nextOpenAt).toEqual(at('2026-11-30T08:00:00-05:00'));
  });

  it('gives the day after 21:00 and the same day before 8:00 as the next opening', () => {
    expect(callingWindowAt(NEW_YORK, at('2026-11-30T23:45:00-05:00')).nextOpenAt).toEqual(
      at('2026-12-01T08:00:00-05:00'),
    );
    expect(callingWindowAt(NEW_YORK, at('2026-12-01T00:10:00-05:00')).nextOpenAt).toEqual(
      at('2026-12-01T08:00:00-05:00'),
    );
    // New Year's Eve across the year's end.
    expect(callingWindowAt(LOS_ANGELES, at('2026-12-31T22:00:00-08:00')).nextOpenAt).toEqual(
      at('2027-01-01T08:00:00-08:00'),
    );
  });
});

describe('state windows', () => {
  for (const [state, number, ruleId, zone] of [
    ['Florida', MIAMI, 'fl-ftsa-quiet-hours', '-05:00'],
    ['Oklahoma', OKLAHOMA_CITY, 'ok-otsa-quiet-hours', '-06:00'],
    ['Maryland', BALTIMORE, 'md-stop-the-spam-calls-quiet-hours', '-05:00'],
  ] as const) {
    it(`${state}: 8:00 to 20:00, closed by the state alone from 20:00 to 21:00`, () => {
      const local = (time: string, day = '2026-11-30') => at(`${day}T${time}:00${zone}`);
      expect(callingWindowAt(number, local('19:59')).open).toBe(true);
      const evening = callingWindowAt(number, local('20:00'));
      expect(evening.open).toBe(false);
      expect(evening.closedBy).toEqual([
        expect.objectContaining({ code: 'state_quiet_hours', ruleId, text: expect.stringContaining(state) }),
      ]);
      expect(evening.nextOpenAt).toEqual(local('08:00', '2026-12-01'));
      // Before 8:00 both close it, the federal rule first.
      const early = callingWindowAt(number, local('07:59'));
      expect(early.closedBy.map((c) => [c.code, c.ruleId])).toEqual([
        ['quiet_hours', FEDERAL],
        ['state_quiet_hours', ruleId],
      ]);
      expect(callingWindowAt(number, local('08:00')).open).toBe(true);
      // The rule binds the state's numbers only.
      expect(callingWindowAt(NEW_YORK, at('2026-11-30T20:30:00-05:00')).open).toBe(true);
    });
  }

  it('Texas: 9:00 to 21:00 Monday to Saturday, 12:00 to 21:00 on Sunday', () => {
    // Saturday 28 and Sunday 29 Nov 2026, Dallas on Central Standard Time.
    const saturday = callingWindowAt(DALLAS, at('2026-11-28T08:59:00-06:00'));
    expect(saturday).toMatchObject({ open: false, state: 'TX', timeZone: 'America/Chicago' });
    expect(saturday.closedBy).toEqual([
      expect.objectContaining({ code: 'state_quiet_hours', ruleId: 'tx-sb140-quiet-hours' }),
    ]);
    expect(saturday.nextOpenAt).toEqual(at('2026-11-28T09:00:00-06:00'));
    expect(callingWindowAt(DALLAS, at('2026-11-28T09:00:00-06:00')).open).toBe(true);
    expect(callingWindowAt(DALLAS, at('2026-11-28T20:59:00-06:00')).open).toBe(true);

    const sunday = callingWindowAt(DALLAS, at('2026-11-29T11:59:00-06:00'));
    expect(sunday.open).toBe(false);
    expect(ids(sunday)).toEqual(['tx-sb140-quiet-hours']);
    expect(sunday.nextOpenAt).toEqual(at('2026-11-29T12:00:00-06:00'));
    expect(callingWindowAt(DALLAS, at('2026-11-29T12:00:00-06:00')).open).toBe(true);

    // Saturday night: the federal window opens at 8:00 on Sunday, but Texas's only at noon.
    const saturdayNight = callingWindowAt(DALLAS, at('2026-11-28T21:30:00-06:00'));
    expect(ids(saturdayNight)).toEqual([FEDERAL, 'tx-sb140-quiet-hours']);
    expect(saturdayNight.nextOpenAt).toEqual(at('2026-11-29T12:00:00-06:00'));
    // Sunday night: Monday 9:00.
    expect(callingWindowAt(DALLAS, at('2026-11-29T21:00:00-06:00')).nextOpenAt).toEqual(
      at('2026-11-30T09:00:00-06:00'),
    );
  });

  it('Texas in El Paso keeps the same hours on Mountain time', () => {
    expect(callingWindowAt(EL_PASO, at('2026-11-29T11:59:00-07:00'))).toMatchObject({
      open: false,
      timeZone: 'America/Denver',
      localTime: '2026-11-29T11:59:00-07:00',
      nextOpenAt: at('2026-11-29T12:00:00-07:00'),
    });
    // Noon in Dallas is still 11:00 in El Paso.
    expect(callingWindowAt(EL_PASO, at('2026-11-29T12:00:00-06:00')).open).toBe(false);
    expect(callingWindowAt(EL_PASO, at('2026-11-29T12:00:00-07:00')).open).toBe(true);
  });

  it('a rule does not apply before its effective date, a local date', () => {
    // Sunday 31 Aug 2025 at 8:30 in Dallas: only the federal window, which is open.
    expect(callingWindowAt(DALLAS, at('2025-08-31T08:30:00-05:00'))).toMatchObject({
      open: true,
      closedBy: [],
    });
    // Saturday 30 Aug 2025 at 8:30 too.
    expect(callingWindowAt(DALLAS, at('2025-08-30T08:30:00-05:00')).open).toBe(true);
    // From Monday 1 Sep 2025 Texas binds: 8:30 is closed, and so is Sunday 7 Sep until noon.
    expect(ids(callingWindowAt(DALLAS, at('2025-09-01T08:30:00-05:00')))).toEqual(['tx-sb140-quiet-hours']);
    const sunday = callingWindowAt(DALLAS, at('2025-09-07T08:30:00-05:00'));
    expect(ids(sunday)).toEqual(['tx-sb140-quiet-hours']);
    expect(sunday.nextOpenAt).toEqual(at('2025-09-07T12:00:00-05:00'));
    // 20:30 on 30 Jun 2021 in Miami is already 1 Jul in UTC, but Florida's 20:00 binds from 1 Jul local.
    expect(callingWindowAt(MIAMI, at('2021-06-30T20:30:00-04:00')).open).toBe(true);
    expect(ids(callingWindowAt(MIAMI, at('2021-07-01T20:30:00-04:00')))).toEqual(['fl-ftsa-quiet-hours']);
    // Maryland from 1 Jan 2024, Oklahoma from 1 Nov 2022.
    expect(callingWindowAt(BALTIMORE, at('2023-12-31T20:30:00-05:00')).open).toBe(true);
    expect(callingWindowAt(BALTIMORE, at('2024-01-01T20:30:00-05:00')).open).toBe(false);
    expect(callingWindowAt(OKLAHOMA_CITY, at('2022-10-31T20:30:00-05:00')).open).toBe(true);
    expect(callingWindowAt(OKLAHOMA_CITY, at('2022-11-01T20:30:00-05:00')).open).toBe(false);
  });
});

describe('daylight-saving changes', () => {
  it('spring forward, Sunday 8 Mar 2026 in New York: 8:00 is 12:00 UTC, no longer 13:00', () => {
    expect(callingWindowAt(NEW_YORK, at('2026-03-08T11:59:00Z'))).toMatchObject({
      open: false,
      localTime: '2026-03-08T07:59:00-04:00',
      nextOpenAt: at('2026-03-08T12:00:00Z'),
    });
    expect(callingWindowAt(NEW_YORK, at('2026-03-08T12:00:00Z')).open).toBe(true);
    // From the night before (21:00 EST), and from 01:30 EST, just before the clocks jump.
    expect(callingWindowAt(NEW_YORK, at('2026-03-07T21:00:00-05:00')).nextOpenAt).toEqual(
      at('2026-03-08T12:00:00Z'),
    );
    expect(callingWindowAt(NEW_YORK, at('2026-03-08T01:30:00-05:00')).nextOpenAt).toEqual(
      at('2026-03-08T12:00:00Z'),
    );
    // Evening: 21:00 EDT is 01:00 UTC.
    expect(callingWindowAt(NEW_YORK, at('2026-03-09T00:59:00Z')).open).toBe(true);
    expect(callingWindowAt(NEW_YORK, at('2026-03-09T01:00:00Z')).open).toBe(false);
    // Texas on the same Sunday: noon CDT is 17:00 UTC.
    expect(callingWindowAt(DALLAS, at('2026-03-08T16:59:00Z')).nextOpenAt).toEqual(
      at('2026-03-08T17:00:00Z'),
    );
  });

  it('fall back, Sunday 1 Nov 2026 in New York: 8:00 is 13:00 UTC, no longer 12:00', () => {
    const saturdayNight = callingWindowAt(NEW_YORK, at('2026-10-31T21:00:00-04:00'));
    expect(saturdayNight).toMatchObject({ open: false, localTime: '2026-10-31T21:00:00-04:00' });
    expect(saturdayNight.nextOpenAt).toEqual(at('2026-11-01T13:00:00Z'));
    // 01:30 happens twice that night; either way the next opening is 08:00 EST.
    expect(callingWindowAt(NEW_YORK, at('2026-11-01T05:30:00Z')).localTime).toBe('2026-11-01T01:30:00-04:00');
    expect(callingWindowAt(NEW_YORK, at('2026-11-01T06:30:00Z')).localTime).toBe('2026-11-01T01:30:00-05:00');
    expect(callingWindowAt(NEW_YORK, at('2026-11-01T06:30:00Z')).nextOpenAt).toEqual(
      at('2026-11-01T13:00:00Z'),
    );
    expect(callingWindowAt(NEW_YORK, at('2026-11-01T12:59:00Z'))).toMatchObject({
      open: false,
      localTime: '2026-11-01T07:59:00-05:00',
    });
    expect(callingWindowAt(NEW_YORK, at('2026-11-01T13:00:00Z')).open).toBe(true);
  });
});

describe('area codes that span two zones', () => {
  it('850 at 07:30 Eastern (06:30 Central): closed on Central time, opens at 08:00 Central = 09:00 Eastern', () => {
    const answer = callingWindowAt(PENSACOLA, at('2026-11-30T07:30:00-05:00'));
    expect(answer).toMatchObject({
      open: false,
      state: 'FL',
      timeZone: 'America/Chicago',
      localTime: '2026-11-30T06:30:00-06:00',
    });
    expect(ids(answer)).toEqual([FEDERAL, 'fl-ftsa-quiet-hours']);
    expect(answer.nextOpenAt).toEqual(at('2026-11-30T09:00:00-05:00'));
    // 08:30 Eastern is open in Tallahassee but not in Pensacola.
    expect(callingWindowAt(PENSACOLA, at('2026-11-30T08:30:00-05:00'))).toMatchObject({
      open: false,
      timeZone: 'America/Chicago',
    });
    // Open: the zone covering most of the area code is named.
    expect(callingWindowAt(PENSACOLA, at('2026-11-30T09:00:00-05:00'))).toMatchObject({
      open: true,
      timeZone: 'America/Chicago',
      localTime: '2026-11-30T08:00:00-06:00',
    });
  });

  it('850 at 20:00 Eastern (19:00 Central): Florida closes it on Eastern time until 08:00 Central', () => {
    expect(callingWindowAt(PENSACOLA, at('2026-11-30T19:59:00-05:00')).open).toBe(true);
    const answer = callingWindowAt(PENSACOLA, at('2026-11-30T20:00:00-05:00'));
    expect(answer).toMatchObject({
      open: false,
      timeZone: 'America/New_York',
      localTime: '2026-11-30T20:00:00-05:00',
    });
    expect(ids(answer)).toEqual(['fl-ftsa-quiet-hours']);
    expect(answer.nextOpenAt).toEqual(at('2026-12-01T08:00:00-06:00'));
  });

  it('541 (Oregon, with Malheur County on Mountain time) closes at 21:00 Mountain = 20:00 Pacific', () => {
    expect(callingWindowAt(EUGENE, at('2026-11-30T19:59:00-08:00')).open).toBe(true);
    const answer = callingWindowAt(EUGENE, at('2026-11-30T20:00:00-08:00'));
    expect(answer).toMatchObject({
      open: false,
      state: 'OR',
      timeZone: 'America/Boise',
      localTime: '2026-11-30T21:00:00-07:00',
    });
    expect(answer.nextOpenAt).toEqual(at('2026-12-01T08:00:00-08:00'));
    // Mornings follow Pacific time: 08:00 Pacific is 09:00 Mountain.
    expect(callingWindowAt(EUGENE, at('2026-12-01T07:59:00-08:00')).timeZone).toBe('America/Los_Angeles');
  });

  it('907 (Alaska, with Adak on Hawaii-Aleutian time) opens at 09:00 Anchorage and closes at 21:00', () => {
    const answer = callingWindowAt(ANCHORAGE, at('2026-11-30T08:30:00-09:00'));
    expect(answer).toMatchObject({
      open: false,
      state: 'AK',
      timeZone: 'America/Adak',
      localTime: '2026-11-30T07:30:00-10:00',
    });
    expect(answer.nextOpenAt).toEqual(at('2026-11-30T09:00:00-09:00'));
    expect(callingWindowAt(ANCHORAGE, at('2026-11-30T09:00:00-09:00'))).toMatchObject({
      open: true,
      timeZone: 'America/Anchorage',
    });
    expect(callingWindowAt(ANCHORAGE, at('2026-11-30T20:59:00-09:00')).open).toBe(true);
    expect(callingWindowAt(ANCHORAGE, at('2026-11-30T21:00:00-09:00'))).toMatchObject({
      open: false,
      timeZone: 'America/Anchorage',
      nextOpenAt: at('2026-12-01T09:00:00-09:00'),
    });
  });
});

describe('numbers we cannot place', () => {
  const unplaced = {
    timeZone: null,
    localTime: null,
    state: null,
    open: true,
    closedBy: [],
    nextOpenAt: null,
  };

  it('are answered open, with nothing located', () => {
    for (const number of ['+442071234567', '+18005550123', '+18885550123', '+14165550123', 'not a number']) {
      expect(callingWindowAt(number, at('2026-11-30T03:00:00-05:00')), number).toEqual(unplaced);
    }
  });

  it('refuses an invalid instant', () => {
    expect(() => callingWindowAt(NEW_YORK, new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('nextOpenAt over a year', () => {
  it('is always open, and a minute before it always closed, for every kind of number', () => {
    const numbers = [
      NEW_YORK,
      PHOENIX,
      HONOLULU,
      MIAMI,
      DALLAS,
      EL_PASO,
      PENSACOLA,
      EUGENE,
      ANCHORAGE,
      '+16715550123',
    ];
    const start = Date.parse('2026-01-01T00:00:00Z');
    // A fixed walk through 2026 in steps of 7 h 13 min, so every hour of every weekday comes up.
    for (let ms = start, step = 0; step < 1215; ms += (7 * 60 + 13) * 60_000, step += 1) {
      const number = numbers[step % numbers.length] ?? NEW_YORK;
      const answer = callingWindowAt(number, new Date(ms));
      if (answer.open) {
        expect(answer.nextOpenAt).toBeNull();
        continue;
      }
      const next = answer.nextOpenAt;
      if (!next) throw new Error(`no opening after ${new Date(ms).toISOString()} for ${number}`);
      expect(next.getTime()).toBeGreaterThan(ms);
      expect(next.getTime() % 60_000).toBe(0);
      expect(next.getTime() - ms).toBeLessThan(24 * 3_600_000);
      expect(callingWindowAt(number, next).open, `${number} ${next.toISOString()}`).toBe(true);
      expect(callingWindowAt(number, new Date(next.getTime() - 60_000)).open).toBe(false);
      // And nothing opens earlier (every window here is open for hours, so quarter-hour steps see any).
      if (step % 10 === 0)
        for (let t = ms; t < next.getTime(); t += 15 * 60_000)
          expect(callingWindowAt(number, new Date(t)).open, new Date(t).toISOString()).toBe(false);
    }
  });
});
