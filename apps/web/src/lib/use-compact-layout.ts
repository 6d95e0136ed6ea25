import { useMantineTheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/**
 * True below Mantine's `md` breakpoint (phones, small tablets): there a table of many columns does not fit beside
 * the sidebar, so lists show as cards instead (issue 13 item 15). Read at the first render, so a phone never draws
 * the table first.
 */
export function useCompactLayout(): boolean {
  const theme = useMantineTheme();
  return useMediaQuery(`not all and (min-width: ${theme.breakpoints.md})`, undefined, {
    getInitialValueInEffect: false,
  });
}
