import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type FullGc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Gives back the memory start used and no longer needs (issue #20 item 5): importing and building the app churns
 * ~100 MB through V8's heap, and V8 keeps what it grew for that (young generation, pooled pages) until a
 * memory-reducing collection, which an idle server never gets. One such collection, before the server listens,
 * takes idle RSS on PostgreSQL from ~290 MB to ~145 MB for ~0.1 s of start.
 * The collector is taken from a throwaway context with `--expose-gc` on only for that moment, so no module of the app
 * (or a dependency probing for `global.gc`) ever sees it.
 */
export function releaseStartMemory(): void {
  setFlagsFromString('--expose-gc');
  let gc: unknown;
  try {
    gc = runInNewContext('gc');
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  // 'last-resort' is V8's collection that also shrinks the young generation and frees pooled pages.
  if (typeof gc === 'function') (gc as FullGc)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
