import { BROADCAST_CHANNEL, type BroadcastMessage, broadcastMessageSchema } from '@veriform/contracts';
import { useEffect, useRef } from 'react';

/**
 * Cross-tab events (SPEC §4): one tab tells the others, e.g. that the user's e-mail address changed. Browsers without
 * BroadcastChannel simply do not hear about it (the user can still refresh by hand).
 */
function openChannel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(BROADCAST_CHANNEL);
}

export function postBroadcast(message: BroadcastMessage): void {
  const channel = openChannel();
  if (!channel) return;
  try {
    channel.postMessage(message);
  } finally {
    channel.close();
  }
}

/** Calls `onMessage` for every well-formed message other tabs post, while the component is mounted. */
export function useBroadcastListener(onMessage: (message: BroadcastMessage) => void): void {
  const handlerRef = useRef(onMessage);
  handlerRef.current = onMessage;
  useEffect(() => {
    const channel = openChannel();
    if (!channel) return;
    channel.onmessage = (event: MessageEvent) => {
      const parsed = broadcastMessageSchema.safeParse(event.data);
      if (parsed.success) handlerRef.current(parsed.data);
    };
    return () => channel.close();
  }, []);
}
