import type { FastifyBaseLogger } from 'fastify';

/**
 * Work done after the answer has been sent (e-mail sends). Answers then take the same time whether or not a message
 * goes out, which keeps "is there an account for this address?" unanswerable by timing. Failures are logged; the
 * user can ask again. `idle()` lets tests and shutdown wait for what is still running.
 */
export function createBackground(log: FastifyBaseLogger) {
  const pending = new Set<Promise<void>>();

  function run(label: string, task: () => Promise<void>): void {
    const promise: Promise<void> = task()
      .catch((error: unknown) => log.error({ err: error }, `${label} failed`))
      .finally(() => pending.delete(promise));
    pending.add(promise);
  }

  async function idle(): Promise<void> {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  }

  return { run, idle };
}

export type Background = ReturnType<typeof createBackground>;
