import { useEffect, useRef, useState } from 'react';
import { deferredModule } from '../../lib/deferred-module';

/**
 * Mantine's Select and MultiSelect bring its combobox, popover, scroll area and floating-ui (~35 KB gzip), which no
 * filter bar needs to show itself: LabelledSelect and LabelledMultiSelect show a stand-in field until they arrive.
 */
export const comboboxes = deferredModule(() => import('./combobox-code'));

/** Fetches them ahead (component tests, which pick options at once). */
export async function preloadComboboxes(): Promise<void> {
  await comboboxes.load();
}

/**
 * What someone did to a stand-in field before the real one arrived, so that the real one carries on: a focused field
 * stays focused, and a pressed one opens its options. The real field is clicked, in a task of its own after it has
 * mounted, rather than mounted open (`defaultDropdownOpened`): either of those left its `aria-expanded` false while
 * the options showed (Mantine learns the list's id in an effect).
 */
export function useStandInReach(inputId: string, arrived: boolean) {
  const [focused, setFocused] = useState(false);
  const [pressed, setPressed] = useState(false);
  const reached = useRef({ focused, pressed });
  reached.current = { focused, pressed };
  useEffect(() => {
    if (!arrived) return;
    const field = document.getElementById(inputId);
    if (reached.current.focused || reached.current.pressed) field?.focus();
    if (!reached.current.pressed) return;
    const timer = window.setTimeout(() => field?.click(), 0);
    return () => window.clearTimeout(timer);
  }, [arrived, inputId]);
  const fetchCode = () => void comboboxes.load().catch(() => undefined);
  return {
    handlers: {
      onPointerEnter: fetchCode,
      onFocus: () => {
        setFocused(true);
        fetchCode();
      },
      // Left before the code arrived: the real field takes nothing over.
      onBlur: () => {
        setFocused(false);
        setPressed(false);
      },
      // From the pointer going down, as AccountMenu's stand-in does: the code arriving between down and up would
      // otherwise take the press's click away.
      onPointerDown: () => {
        setPressed(true);
        fetchCode();
      },
      onClick: () => {
        setPressed(true);
        fetchCode();
      },
      onKeyDown: (event: { key: string }) => {
        // The keys that open a Mantine select's options, besides a click.
        if (
          event.key === 'ArrowDown' ||
          event.key === 'ArrowUp' ||
          event.key === 'Enter' ||
          event.key === ' '
        ) {
          setPressed(true);
          fetchCode();
        }
      },
    },
  };
}
