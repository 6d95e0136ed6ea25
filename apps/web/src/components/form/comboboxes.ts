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
 * stays focused, and a pressed one opens its options (`open`, for the real field's `defaultDropdownOpened`).
 */
export function useStandInReach(inputId: string, arrived: boolean) {
  const [focused, setFocused] = useState(false);
  const [open, setOpen] = useState(false);
  const reached = useRef(false);
  reached.current = focused || open;
  useEffect(() => {
    if (arrived && reached.current) document.getElementById(inputId)?.focus();
  }, [arrived, inputId]);
  const fetchCode = () => void comboboxes.load().catch(() => undefined);
  return {
    open,
    handlers: {
      onPointerEnter: fetchCode,
      onFocus: () => {
        setFocused(true);
        fetchCode();
      },
      onBlur: () => setFocused(false),
      onClick: () => {
        setOpen(true);
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
          setOpen(true);
          fetchCode();
        }
      },
    },
  };
}
