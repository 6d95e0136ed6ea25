import { Group, Stack, Text } from '@mantine/core';
import type { VerificationAttempt } from '@veriform/contracts';
import { AnchorLink } from '../../../components/links';
import { TestBadge } from '../../../components/TestBadge';
import { formatPhoneForReading } from '../../../lib/format';
import { verificationSearchDefaults } from '../../../lib/verification-search';
import { attemptStatusLabels } from '../labels';

/** What the attempts' table and cards show: one page of attempts. */
export type AttemptRowsProps = {
  attempts: readonly VerificationAttempt[];
  /** The next page is loading while this one stays on screen. */
  busy?: boolean;
};

export function dimmedDash() {
  return (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  );
}

/** The number as the log shows it, the e-mail address under it when the code went by e-mail. */
export function PhoneCell({ attempt }: { attempt: VerificationAttempt }) {
  return (
    <Stack gap={0}>
      <Group gap="xs" wrap="nowrap">
        <Text span size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
          {formatPhoneForReading(attempt.cellPhone)}
        </Text>
        {attempt.isTest && <TestBadge />}
      </Group>
      {attempt.channel === 'email' && attempt.email && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {attempt.email}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Why a message was not delivered and what to do next, as two lines (a tooltip would hide the next step from touch
 * and keyboard users). A provider code without words is still shown; nothing to say is a dash.
 */
export function ReasonCell({ attempt }: { attempt: VerificationAttempt }) {
  const code = attempt.deliveryErrorCode;
  if (attempt.deliveryReason) {
    return (
      <Stack gap={2}>
        <Text size="sm">{attempt.deliveryReason.reason}</Text>
        <Text size="xs" c="dimmed">
          {attempt.deliveryReason.nextStep}
          {code && ` (error ${code})`}
        </Text>
      </Stack>
    );
  }
  if (code) return <Text size="sm">Error {code}</Text>;
  return dimmedDash();
}

/** A verified attempt links to its verification; any other says what became of its code. */
export function VerifiedCell({ attempt }: { attempt: VerificationAttempt }) {
  if (attempt.verified && attempt.verificationId !== null) {
    return (
      <AnchorLink
        to="/activity-log/$verificationId"
        params={{ verificationId: String(attempt.verificationId) }}
        // The detail's Back link goes to the log's verifications, unfiltered.
        search={verificationSearchDefaults}
        size="sm"
        fw={500}
        aria-label={`Verified: open the verification of ${formatPhoneForReading(attempt.cellPhone)}`}
      >
        Verified
      </AnchorLink>
    );
  }
  return (
    <Text span size="sm" c="dimmed">
      {attemptStatusLabels[attempt.status]}
    </Text>
  );
}
