import { Badge, type MantineSize } from '@mantine/core';
import { IconHandStop } from '@tabler/icons-react';
import type { VerificationSearch } from '@veriform/contracts';
import { LabelledSelect } from '../../../components/form/LabelledSelect';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A day in the reader's locale and zone: a revocation is told by its date. */
export const formatRevokedDate = (iso: string) => dateFormat.format(new Date(iso));

/**
 * Marks a verification whose consent the consumer revoked since (issue #35), with the day it was received: in words
 * and an icon, never its colour alone. The verification stays evidence of its moment; contacting the number again
 * needs new consent.
 */
export function RevokedBadge({ revokedAt, size = 'xs' }: { revokedAt: string; size?: MantineSize }) {
  return (
    <Badge
      size={size}
      variant="light"
      color="red"
      // Dark text on the tint: Mantine's light text colours fall below AA's 4.5:1 on some tints.
      c="dark.6"
      tt="none"
      leftSection={<IconHandStop size={12} aria-hidden="true" />}
      style={{ flexShrink: 0 }}
    >
      <time dateTime={revokedAt}>Revoked {formatRevokedDate(revokedAt)}</time>
    </Badge>
  );
}

type RevokedChoice = 'any' | 'revoked' | 'not_revoked';
const revokedOptions: { value: RevokedChoice; label: string }[] = [
  { value: 'any', label: 'Any' },
  { value: 'revoked', label: 'Revoked' },
  { value: 'not_revoked', label: 'Not revoked' },
];

const choiceOf = (revoked: boolean | undefined): RevokedChoice =>
  revoked === undefined ? 'any' : revoked ? 'revoked' : 'not_revoked';

/**
 * The activity log's revoked filter (issue #35), in the filter bar after the shared filters: any, only the
 * verifications whose consent was revoked since, or only the others. The dashboard has no such filter.
 */
export function RevokedFilter({
  value,
  onChange,
}: {
  value: VerificationSearch['revoked'];
  onChange: (revoked: VerificationSearch['revoked']) => void;
}) {
  return (
    <LabelledSelect
      label="Revoked"
      data={revokedOptions}
      value={choiceOf(value)}
      onChange={(choice) =>
        onChange(choice === 'revoked' ? true : choice === 'not_revoked' ? false : undefined)
      }
      w={140}
    />
  );
}
