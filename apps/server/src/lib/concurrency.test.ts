import { describe, expect, it } from 'vitest';
import { eachAtMost } from './concurrency.ts';

/** A promise resolved from outside. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('eachAtMost', () => {
  it('runs every item, never more than the bound at once, answering each', async () => {
    let running = 0;
    let most = 0;
    const answers = await eachAtMost([...Array(20).keys()], 3, async (n) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return n * 2;
    });
    expect(most).toBe(3);
    expect([...answers.entries()].sort(([a], [b]) => a - b)).toEqual(
      [...Array(20).keys()].map((n) => [n, n * 2]),
    );
  });

  it('with a wait: answers what ended in time, starts nothing after it, and a late failure goes unheard', async () => {
    const held = deferred<string>();
    const started: string[] = [];
    const answers = await eachAtMost(
      ['quick', 'held', 'later'],
      1,
      async (item) => {
        started.push(item);
        if (item === 'held') {
          await held.promise;
          throw new Error('failed after the wait');
        }
        return item.toUpperCase();
      },
      { waitMs: 20 },
    );
    expect([...answers]).toEqual([['quick', 'QUICK']]);
    held.resolve('now');
    await held.promise;
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['quick', 'held']);
  });

  it('without a wait, a work’s failure fails the whole', async () => {
    await expect(
      eachAtMost([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error('two');
        return n;
      }),
    ).rejects.toThrow('two');
  });
});
