/**
 * Runs `work` on each item, at most `concurrency` at once, in the items' order. With `waitMs`, stops waiting after
 * that long: items not started by then are never started, and the answer holds only the ones that ended in time (a
 * work still running goes on, and its answer is dropped; its failure too: the caller's work catches what it expects).
 * Without `waitMs`, a work's error fails the whole (the others still started are left to end).
 */
export async function eachAtMost<Item, Answer>(
  items: readonly Item[],
  concurrency: number,
  work: (item: Item) => Promise<Answer>,
  options: { waitMs?: number } = {},
): Promise<Map<Item, Answer>> {
  const answers = new Map<Item, Answer>();
  let next = 0;
  let waiting = true;
  const worker = async () => {
    while (waiting && next < items.length) {
      const item = items[next] as Item;
      next += 1;
      const answer = await work(item);
      if (waiting) answers.set(item, answer);
    }
  };
  const workers = Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (options.waitMs === undefined) {
    await workers;
    return answers;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, options.waitMs);
  });
  try {
    await Promise.race([workers, timedOut]);
  } finally {
    clearTimeout(timer);
    waiting = false;
  }
  // What still runs past the wait is no one's to await: its failure must not go unhandled.
  workers.catch(() => undefined);
  return new Map(answers);
}
