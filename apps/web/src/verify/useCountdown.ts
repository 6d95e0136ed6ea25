import { useCallback, useEffect, useState } from 'react';

/**
 * Whole seconds left until a deadline, ticking once a second. Counted from the clock rather than by decrementing, so a
 * phone that throttles timers in a background tab still shows the right number when the consumer comes back.
 */
export function useCountdown(): { secondsLeft: number; start: (seconds: number) => void } {
  const [deadline, setDeadline] = useState<number | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(0);

  const start = useCallback((seconds: number) => {
    setDeadline(Date.now() + Math.max(0, seconds) * 1000);
    setSecondsLeft(Math.max(0, Math.ceil(seconds)));
  }, []);

  useEffect(() => {
    if (deadline === null) return;
    const id = window.setInterval(() => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setSecondsLeft(left);
      if (left === 0) window.clearInterval(id);
    }, 1000);
    return () => window.clearInterval(id);
  }, [deadline]);

  return { secondsLeft, start };
}
