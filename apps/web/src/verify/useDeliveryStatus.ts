import type { PublicDeliveryStatus } from '@veriform/contracts';
import { useEffect, useState } from 'react';
import type { PublicApi } from './api';

/** How often the page asks while the consumer waits for the code. */
export const DELIVERY_POLL_MS = 3000;

/** Nothing changes after these (ADR 23); `unknown` is not one of them: a late callback may still come. */
const FINAL = new Set<PublicDeliveryStatus['status']>(['delivered', 'undelivered', 'failed']);

/**
 * What became of the code's message (issue #18 item 5), asked at once and then every few seconds while `attemptId` is
 * set, until the status is final, the attempt takes no code any more (404) or the code has expired. A timer rather
 * than TanStack Query, which this page does not load (its JavaScript budget). A network error just waits for the next
 * turn. Null until the first answer for this attempt.
 */
export function useDeliveryStatus(
  api: PublicApi,
  attemptId: string | null,
  expiresAt: string | null,
): PublicDeliveryStatus | null {
  const [state, setState] = useState<{ attemptId: string; delivery: PublicDeliveryStatus } | null>(null);

  useEffect(() => {
    if (!attemptId || !expiresAt) return;
    const until = Date.parse(expiresAt);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      const result = await api.deliveryStatus(attemptId);
      if (stopped) return;
      if (result.ok) {
        setState({ attemptId, delivery: result.data });
        if (FINAL.has(result.data.status)) return;
      } else if (result.failure.kind === 'notFound') {
        return;
      }
      if (Date.now() + DELIVERY_POLL_MS >= until) return;
      timer = setTimeout(() => void poll(), DELIVERY_POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, attemptId, expiresAt]);

  return state?.attemptId === attemptId ? state.delivery : null;
}
