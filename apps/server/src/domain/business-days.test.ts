import { describe, expect, it } from 'vitest';
import { addBusinessDays, addCalendarDays, federalHolidays, isBusinessDay } from './business-days.ts';

describe('US federal holidays as observed (5 U.S.C. 6103)', () => {
  it('lists the eleven of 2026 on their observed days (OPM’s calendar)', () => {
    expect(federalHolidays(2026)).toEqual([
      { name: "New Year's Day", observed: '2026-01-01' },
      { name: 'Birthday of Martin Luther King, Jr.', observed: '2026-01-19' },
      { name: "Washington's Birthday", observed: '2026-02-16' },
      { name: 'Memorial Day', observed: '2026-05-25' },
      { name: 'Juneteenth National Independence Day', observed: '2026-06-19' },
      // 4 July 2026 is a Saturday: observed on Friday the 3rd.
      { name: 'Independence Day', observed: '2026-07-03' },
      { name: 'Labor Day', observed: '2026-09-07' },
      { name: 'Columbus Day', observed: '2026-10-12' },
      { name: 'Veterans Day', observed: '2026-11-11' },
      { name: 'Thanksgiving Day', observed: '2026-11-26' },
      { name: 'Christmas Day', observed: '2026-12-25' },
    ]);
  });

  it('moves a Sunday holiday to the Monday after and a Saturday one to the Friday before, across years', () => {
    const days = (year: number) => federalHolidays(year).map((h) => h.observed);
    // Juneteenth 2022 and Christmas 2022 fell on Sundays; New Year's Day 2023 too (observed Monday 2 Jan).
    expect(days(2022)).toEqual(expect.arrayContaining(['2022-06-20', '2022-12-26']));
    expect(days(2023)).toContain('2023-01-02');
    // New Year's Day 2028 is a Saturday: observed on Friday 31 Dec 2027, which is 2027's, not 2028's.
    expect(days(2027)).toContain('2027-12-31');
    expect(days(2028)).not.toContain('2027-12-31');
    expect(days(2028).some((d) => d.startsWith('2028-01-01'))).toBe(false);
    // Juneteenth is a federal holiday since 2021 only.
    expect(federalHolidays(2020).map((h) => h.name)).not.toContain('Juneteenth National Independence Day');
    expect(days(2021)).toContain('2021-06-18');
    for (const year of [2024, 2025, 2026, 2027, 2028, 2029, 2030])
      expect(federalHolidays(year).filter((h) => h.name !== "New Year's Day")).toHaveLength(10);
  });

  it('counts weekdays that are not holidays as business days', () => {
    expect(isBusinessDay('2026-11-25')).toBe(true); // a Wednesday
    expect(isBusinessDay('2026-11-26')).toBe(false); // Thanksgiving
    expect(isBusinessDay('2026-11-28')).toBe(false); // a Saturday
    expect(isBusinessDay('2026-11-29')).toBe(false); // a Sunday
    expect(isBusinessDay('2026-07-03')).toBe(false); // Independence Day observed
    expect(isBusinessDay('2026-07-04')).toBe(false); // the Saturday itself is a weekend day anyway
    expect(() => isBusinessDay('2026-02-30')).toThrow(RangeError);
    expect(() => isBusinessDay('0000-01-01')).not.toThrow();
    expect(() => isBusinessDay('26-1-1')).toThrow(RangeError);
  });
});

describe('counting days', () => {
  it('counts business days from the day after, leaving out weekends and holidays', () => {
    // Received Wednesday 25 Nov 2026: Thanksgiving and two weekends left out.
    expect(addBusinessDays('2026-11-25', 10)).toBe('2026-12-10');
    // Received on a Friday before Christmas week: Christmas and New Year's Day 2027 (a Friday) left out.
    expect(addBusinessDays('2026-12-18', 10)).toBe('2027-01-05');
    // Received on a Saturday: Monday is the first day.
    expect(addBusinessDays('2026-11-28', 1)).toBe('2026-11-30');
    // A holiday observed on 31 Dec 2027 (New Year's Day 2028) is left out too.
    expect(addBusinessDays('2027-12-30', 1)).toBe('2028-01-03');
    expect(() => addBusinessDays('2026-11-25', 0)).toThrow(RangeError);
    expect(() => addBusinessDays('2026-11-25', 1.5)).toThrow(RangeError);
  });

  it('counts calendar days across months, years and a leap day', () => {
    expect(addCalendarDays('2026-11-25', 15)).toBe('2026-12-10');
    expect(addCalendarDays('2027-12-20', 15)).toBe('2028-01-04');
    expect(addCalendarDays('2028-02-20', 15)).toBe('2028-03-06');
  });
});
