import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Background work that must not crowd out the requests people are waiting for (issue #37 item 4, ADR 51): the retention
 * purge's batches and an erasure's steps (its redactions, its batches of attempts) run one at a time, each followed by
 * a pause of `factor` times the step's own duration, so the work holds a database backend and a core for at most
 * 1 / (1 + factor) of the time it runs. Measured beside the load mix at 10M verifications (docs/benchmarks.md, sessions
 * 33 and 34): unpaced, a purge of 1.4M rows took the mix's p95 to 1.67×; paced, the purge 1.10× and an erasure 1.09×.
 * A step that throws is not paused after: the error goes to the caller at once.
 */
export type Pace = <T>(step: () => Promise<T>) => Promise<T>;

/** BACKGROUND_PAUSE_FACTOR's default (config.ts): the work runs a fifth of the time. */
export const DEFAULT_BACKGROUND_PAUSE_FACTOR = 4;

/** Steps one after another with no pause (factor 0): what tests and a machine with cores to spare use. */
export const unpaced: Pace = (step) => step();

export function createPace(factor: number, wait: (ms: number) => Promise<unknown> = sleep): Pace {
  if (!(factor > 0)) return unpaced;
  return async (step) => {
    const started = performance.now();
    const result = await step();
    await wait((performance.now() - started) * factor);
    return result;
  };
}
