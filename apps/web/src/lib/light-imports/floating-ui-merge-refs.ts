import { type Ref, type RefCallback, useCallback, useMemo, useRef } from 'react';

/**
 * What Mantine's ScrollArea takes from @floating-ui/react (its only import from it): `useMergeRefs`, copied from
 * @floating-ui/react 0.27 (MIT, floating-ui.react.mjs) so that a page with a table does not load floating-ui's ~15 KB
 * (gzip) for it; the build points ScrollArea's import here (apps/web/vite.config.ts, lightImports).
 */
export function useMergeRefs<Instance>(refs: Array<Ref<Instance> | undefined>): null | RefCallback<Instance> {
  const cleanupRef = useRef<(() => void) | undefined>(undefined);
  const refEffect = useCallback((instance: Instance) => {
    const cleanups = refs.map((ref) => {
      if (ref == null) return undefined;
      if (typeof ref === 'function') {
        const refCleanup = ref(instance);
        return typeof refCleanup === 'function' ? refCleanup : () => ref(null);
      }
      ref.current = instance;
      return () => {
        ref.current = null;
      };
    });
    return () => {
      for (const refCleanup of cleanups) refCleanup?.();
    };
    // biome-ignore lint/correctness/useExhaustiveDependencies: as in the original, the refs are the dependencies
  }, refs);
  return useMemo(() => {
    if (refs.every((ref) => ref == null)) return null;
    return (value: Instance) => {
      if (cleanupRef.current) {
        cleanupRef.current();
        cleanupRef.current = undefined;
      }
      if (value != null) cleanupRef.current = refEffect(value);
    };
    // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  }, refs);
}
