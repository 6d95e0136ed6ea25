import { describe, expect, it } from 'vitest';
import { revocationDeadline } from './deadline.ts';
import { statusOf } from './status.ts';

describe('a revocation’s deadline', () => {
  it('is the 10th business day after the day of receipt, that day read in the number’s zone', () => {
    // 02:30 UTC on Thursday 26 Nov is still Wednesday the 25th in New York and in Los Angeles.
    const lateWednesday = new Date('2026-11-26T02:30:00Z');
    expect(revocationDeadline(lateWednesday, 'federal')).toBe('2026-12-10');
    expect(revocationDeadline(lateWednesday, 'federal', 'America/Los_Angeles')).toBe('2026-12-10');
    // 02:30 UTC on Thursday 3 Dec is Wednesday the 2nd in New York: counted from Thursday, or in UTC from Friday.
    const lateDecember2 = new Date('2026-12-03T02:30:00Z');
    expect(revocationDeadline(lateDecember2, 'federal')).toBe('2026-12-16');
    expect(revocationDeadline(lateDecember2, 'federal', 'UTC')).toBe('2026-12-17');
  });

  it('is 15 calendar days for a STOP from a Florida number, or the federal deadline when that comes first', () => {
    expect(revocationDeadline(new Date('2026-11-25T15:00:00Z'), 'florida_stop')).toBe('2026-12-10');
    // Christmas and New Year's Day within: the federal deadline is 5 Jan, Florida's 4 Jan.
    expect(revocationDeadline(new Date('2026-12-20T15:00:00Z'), 'federal')).toBe('2027-01-05');
    expect(revocationDeadline(new Date('2026-12-20T15:00:00Z'), 'florida_stop')).toBe('2027-01-04');
    // Received on a Saturday: the federal 10 business days end on Friday 11 Dec, before Florida's 13 Dec.
    expect(revocationDeadline(new Date('2026-11-28T15:00:00Z'), 'florida_stop')).toBe('2026-12-11');
  });

  it('is overdue once the deadline day has ended in New York, where it was counted, not before', () => {
    const open = { status: 'open', deadline: '2026-12-10' } as const;
    expect(statusOf(open, new Date('2026-12-11T04:59:59Z'))).toBe('open'); // 23:59:59 in New York
    expect(statusOf(open, new Date('2026-12-11T05:00:00Z'))).toBe('overdue');
    // Only an open one: an acknowledged one past its deadline was honoured.
    expect(statusOf({ ...open, status: 'acknowledged' }, new Date('2027-01-01T00:00:00Z'))).toBe(
      'acknowledged',
    );
  });
});
