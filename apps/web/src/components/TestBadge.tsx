import { Badge, type MantineSize } from '@mantine/core';

/** Marks test data (issue #33: a test key's or a test number's) next to the number it belongs to. */
export function TestBadge({ size = 'xs' }: { size?: MantineSize }) {
  return (
    <Badge
      size={size}
      variant="light"
      color="orange"
      // Dark text on the tint: Mantine's light orange (orange.9 on orange.1) is 3.6:1, below AA's 4.5:1.
      c="dark.6"
      style={{ flexShrink: 0 }}
    >
      Test
    </Badge>
  );
}
