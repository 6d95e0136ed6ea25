import { Badge } from '@mantine/core';
import { IconArchive, IconBan, IconEraser, IconShieldCheck } from '@tabler/icons-react';
import type { CertificateStatus } from '@veriform/contracts';
import { statusLabels } from '../standing';

const looks = {
  valid: { color: 'green', icon: IconShieldCheck },
  revoked: { color: 'red', icon: IconBan },
  redacted: { color: 'gray', icon: IconEraser },
  purged: { color: 'gray', icon: IconArchive },
} as const;

/** The certificate's standing in words, with an icon: never its colour alone. */
export function CertificateStatusBadge({
  status,
  size = 'lg',
}: {
  status: CertificateStatus;
  size?: 'md' | 'lg';
}) {
  const look = looks[status];
  const Icon = look.icon;
  return (
    <Badge
      size={size}
      variant="light"
      color={look.color}
      // Dark text on the tint: Mantine's light text colours fall below AA's 4.5:1 on some tints.
      c="dark.6"
      leftSection={<Icon size={14} aria-hidden="true" />}
    >
      {statusLabels[status]}
    </Badge>
  );
}
