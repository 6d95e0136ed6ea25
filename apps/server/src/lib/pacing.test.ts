import { describe, expect, it } from 'vitest';
import { createPace, unpaced } from './pacing.ts';

describe('createPace', () => {
  it('pauses after each step for the factor times the step’s own duration', async () => {
    const pauses: number[] = [];
    const pace = createPace(4, async (ms) => {
      pauses.push(ms);
    });
    const answer = await pace(async () => {
      const until = performance.now() + 20;
      while (performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 1));
      return 'done';
    });
    expect(answer).toBe('done');
    expect(pauses).toHaveLength(1);
    // At least 4 × the 20 ms the step took; a busy machine may stretch the step, never shrink it.
    expect(pauses[0]).toBeGreaterThanOrEqual(80);
  });

  it('does not pause after a step that throws: the error reaches the caller at once', async () => {
    const pauses: number[] = [];
    const pace = createPace(4, async (ms) => {
      pauses.push(ms);
    });
    await expect(pace(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(pauses).toEqual([]);
  });

  it('a factor of 0 runs steps back to back', async () => {
    expect(createPace(0)).toBe(unpaced);
    expect(await unpaced(async () => 7)).toBe(7);
  });
});
