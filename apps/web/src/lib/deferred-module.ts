import { useEffect, useSyncExternalStore } from 'react';

/**
 * Code a page does not need to show itself (a menu's dropdown, a select's options), fetched after the page has shown
 * or as soon as someone reaches for it, whichever comes first. Until then its caller shows a light stand-in.
 */
export interface DeferredModule<M> {
  /** Starts the fetch (once; again after a failure); resolves with the module. */
  load: () => Promise<M>;
  /** The module once fetched, else undefined; fetches it after the page has shown (afterPageShown). */
  useModule: () => M | undefined;
}

/**
 * A second after the component that asks has mounted (it mounts with the page's content), at the browser's next idle
 * moment: the page's own late requests and rendering go first. An idle callback alone came too early, in the middle of
 * the page's own route chunks (DeferredNotifications says the same). Without requestIdleCallback (Safari) the second
 * alone.
 */
const SETTLE_MS = 1_000;

function afterPageShown(task: () => void): () => void {
  let idle: number | undefined;
  const timer = window.setTimeout(() => {
    if (typeof window.requestIdleCallback === 'function')
      idle = window.requestIdleCallback(task, { timeout: 2_000 });
    else task();
  }, SETTLE_MS);
  return () => {
    window.clearTimeout(timer);
    if (idle !== undefined) window.cancelIdleCallback(idle);
  };
}

export function deferredModule<M>(importer: () => Promise<M>): DeferredModule<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  const listeners = new Set<() => void>();

  const load = (): Promise<M> => {
    loading ??= importer().then(
      (module) => {
        loaded = module;
        for (const listener of listeners) listener();
        return module;
      },
      (error: unknown) => {
        // The next reach (a click, the next mount) tries again; the stand-in stays meanwhile.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };

  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const snapshot = () => loaded;

  const useModule = (): M | undefined => {
    const module = useSyncExternalStore(subscribe, snapshot, snapshot);
    const present = module !== undefined;
    useEffect(() => {
      if (present) return;
      return afterPageShown(() => void load().catch(() => undefined));
    }, [present]);
    return module;
  };

  return { load, useModule };
}
