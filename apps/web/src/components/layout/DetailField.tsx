import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One label and its value in a description list (`<dl>`): the cards that replace tables at phone width, and detail
 * panels. The value wraps anywhere, so a long URL, key prefix or user agent never widens the card.
 */
export function DetailField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text component="dt" size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}
