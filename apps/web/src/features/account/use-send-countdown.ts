import type { EmailChangeRequest } from '@veriform/contracts';
import { useEffect, useState } from 'react';
import { secondsUntilNextSend } from './email-change';

/** secondsUntilNextSend, kept current: the component renders again every second while the wait lasts. */
export function useSendCountdown(request: EmailChangeRequest | null | undefined): number {
  const [, setTick] = useState(0);
  const seconds = secondsUntilNextSend(request, Date.now());
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => setTick((tick) => tick + 1), 1000);
    return () => clearTimeout(timer);
  });
  return seconds;
}
