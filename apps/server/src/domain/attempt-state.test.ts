import { schema } from '@veriform/db';
import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  type AttemptStatus,
  canMove,
  expiredSql,
  isOpen,
  openSql,
  type StoredStatus,
  statusAt,
  statusSql,
  TRANSITIONS,
} from '../modules/attempts/index.ts';
import { useTestApp } from '../test-support/app.ts';
import { type AttemptRow, createAttempt } from '../test-support/attempts.ts';

const t = useTestApp();
const { verificationAttempts } = schema;

/**
 * "Expired" is defined once per language (ADR 35): state.ts for TypeScript and Drizzle readers, attempt_is_open and
 * attempt_status_at for the SQL functions. One table of cases holds them to the same answers, on both engines
 * (engine-specific-tests.ts): every stored status against an expires_at before, at and after now.
 */
const STATUSES: StoredStatus[] = ['pending', 'verified', 'locked', 'replaced', 'canceled'];
const NOW = new Date('2026-11-29T10:00:00.000Z');
const OFFSETS_MS = [-60_000, -1, 0, 1, 60_000];

const expected = (status: StoredStatus, offsetMs: number): AttemptStatus =>
  status === 'pending' ? (offsetMs > 0 ? 'pending' : 'expired') : status;

const cases = STATUSES.flatMap((status) =>
  OFFSETS_MS.map((offsetMs) => ({ status, expiresAt: new Date(NOW.getTime() + offsetMs), offsetMs })),
);

describe('the attempt state', () => {
  it('TypeScript: a pending code before its expires_at is open; at or after it, expired', () => {
    for (const c of cases) {
      const label = `${c.status} ${c.offsetMs}`;
      expect(statusAt(c, NOW), label).toBe(expected(c.status, c.offsetMs));
      expect(isOpen(c, NOW), label).toBe(expected(c.status, c.offsetMs) === 'pending');
    }
  });

  it('only a pending attempt moves, and to the four final statuses', () => {
    expect(TRANSITIONS.pending).toEqual(['replaced', 'verified', 'locked', 'canceled']);
    for (const from of STATUSES.filter((s) => s !== 'pending')) {
      for (const to of STATUSES) expect(canMove(from, to), `${from} → ${to}`).toBe(false);
    }
  });

  it('the SQL functions and the Drizzle fragments read stored rows as statusAt and isOpen do', async () => {
    const rows: { row: AttemptRow; offsetMs: number }[] = [];
    let first: AttemptRow | undefined;
    for (const c of cases) {
      const row = await createAttempt(t.app, {
        status: c.status,
        expiresAt: c.expiresAt,
        ...(first ? { sameFormAs: first } : {}),
      });
      first ??= row;
      rows.push({ row, offsetMs: c.offsetMs });
    }
    const ids = rows.map(({ row }) => row.id);
    const read = await t.db.db
      .select({
        id: verificationAttempts.id,
        status: statusSql(NOW),
        open: sql<boolean>`${openSql(NOW)}`,
        expired: sql<boolean>`${expiredSql(NOW)}`,
        // The functions of migration attempt_state, which judge_verification_code reads.
        fnStatus: sql<string>`attempt_status_at(${verificationAttempts.status}, ${verificationAttempts.expiresAt}, ${NOW.toISOString()}::timestamptz)`,
        fnOpen: sql<boolean>`attempt_is_open(${verificationAttempts.status}, ${verificationAttempts.expiresAt}, ${NOW.toISOString()}::timestamptz)`,
      })
      .from(verificationAttempts)
      .where(inArray(verificationAttempts.id, ids));
    expect(read).toHaveLength(cases.length);
    for (const { row, offsetMs } of rows) {
      const found = read.find((r) => r.id === row.id);
      const label = `${row.status} ${offsetMs}`;
      expect(found?.status, label).toBe(statusAt(row, NOW));
      expect(found?.open, label).toBe(isOpen(row, NOW));
      expect(found?.expired, label).toBe(statusAt(row, NOW) === 'expired');
      expect(found?.fnStatus, label).toBe(statusAt(row, NOW));
      expect(found?.fnOpen, label).toBe(isOpen(row, NOW));
    }
  });
});
