import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';

/** The product name with its mark, used in the top bar and above the auth pages. */
export function BrandMark() {
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={28} radius="md" aria-hidden="true">
        <IconShieldCheck size={18} />
      </ThemeIcon>
      <Text fw={700} fz="lg">
        Veriform
      </Text>
    </Group>
  );
}
