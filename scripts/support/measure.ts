/**
 * What the benchmark scripts share: quantiles, millisecond formatting, and recording the SQL a call sends through the
 * node-postgres pool so it can be replayed alone ("raw SQL", the database's share of the call).
 */
import type pg from 'pg';

export const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0;
};

export const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));

export type Recorded = { text: string; values: unknown[] };

/** Wraps `pool.query` once; `start()` … `stop()` returns the statements sent between them (Drizzle's `{text}` calls). */
export function sqlRecorder(pool: pg.Pool) {
  let recording: Recorded[] | null = null;
  const original = pool.query.bind(pool) as (...a: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: (...a: unknown[]) => Promise<unknown> }).query = (...a: unknown[]) => {
    const [first, second] = a;
    if (recording && first && typeof first === 'object' && 'text' in first) {
      const q = first as { text: string; values?: unknown[] };
      recording.push({ text: q.text, values: q.values ?? (Array.isArray(second) ? second : []) });
    }
    return original(...a);
  };
  return {
    start() {
      recording = [];
    },
    stop(): Recorded[] {
      const recorded = recording ?? [];
      recording = null;
      return recorded;
    },
    /** A statement outside the recording (the pool's own query). */
    query: (text: string, values: unknown[] = []) => original({ text, values }),
    /** Runs the statements one after the other; answers the milliseconds it took. */
    async replay(queries: Recorded[]): Promise<number> {
      const started = performance.now();
      for (const q of queries) await original({ text: q.text, values: q.values });
      return performance.now() - started;
    },
  };
}
