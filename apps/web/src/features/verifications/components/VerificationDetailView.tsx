import { Alert, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconEraser, IconGavel, IconHandStop } from '@tabler/icons-react';
import { languageLabels, type VerificationDetail, type VerificationRevocation } from '@veriform/contracts';
import { type ReactNode, useId } from 'react';
import { AnchorLink } from '../../../components/links';
import { TestBadge } from '../../../components/TestBadge';
import { formatPhoneForReading, formatTimeToVerify, methodLabels } from '../../../lib/format';
import { verificationSearchDefaults } from '../../../lib/verification-search';
import { legalHoldScopeLabels, legalHoldSearchDefaults } from '../../legal-holds/api';
import { revocationChannelLabels, revocationSearchDefaults } from '../../revocations/api';
import { sourceLabels } from '../source';
import { DetailField, Instant, notRecorded } from './DetailField';
import { FreshLinkAction } from './FreshLinkAction';
import { NumberChecksCard } from './NumberChecksCard';
import { RevokedBadge } from './RevokedMark';
import { VerificationTimelineCard } from './VerificationTimelineCard';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/**
 * The consumer revoked consent after this verification (issue #35): when, by which channel, and where the revocation
 * is handled (Activity Log › Revocations, found by the number or address it named). The verification stays evidence
 * of its moment.
 */
function RevocationNotice({ revocation }: { revocation: VerificationRevocation }) {
  const named = revocation.phone ?? revocation.email;
  return (
    <Alert
      color="red"
      icon={<IconHandStop aria-hidden="true" />}
      title={`Consent revoked on ${formatDate(revocation.receivedAt)}`}
    >
      <Stack gap="xs">
        <Text size="sm">
          {revocationChannelLabels[revocation.channel]}, received <Instant iso={revocation.receivedAt} />
          {named ? ` for ${revocation.phone ? formatPhoneForReading(named) : named}` : ''}. This verification
          remains evidence of consent at its moment; contacting the consumer again needs new consent.
        </Text>
        <AnchorLink
          to="/activity-log/revocations"
          search={{ ...revocationSearchDefaults, q: named ?? undefined }}
          size="sm"
          // Dark and underlined on the alert's tint: the theme's link blue is 4.1:1 there, below AA's 4.5:1.
          c="dark.7"
          underline="always"
        >
          See it in Activity Log › Revocations
        </AnchorLink>
      </Stack>
    </Alert>
  );
}

/**
 * Legal holds reach this verification (issue #37): it is kept whatever the retention policy says and cannot be
 * redacted until each is released (Settings › Legal holds).
 */
function LegalHoldNotice({ holds }: { holds: VerificationDetail['holds'] }) {
  const [first] = holds;
  if (!first) return null;
  return (
    <Alert
      color="orange"
      icon={<IconGavel aria-hidden="true" />}
      title={holds.length === 1 ? `Under legal hold: ${first.reason}` : `Under ${holds.length} legal holds`}
    >
      <Stack gap="xs">
        {holds.length > 1 && (
          <Stack component="ul" gap={2} m={0} pl="md">
            {holds.map((hold) => (
              <Text component="li" size="sm" key={hold.id}>
                {hold.reason} ({legalHoldScopeLabels[hold.scope].toLowerCase()})
              </Text>
            ))}
          </Stack>
        )}
        <Text size="sm">
          {holds.length === 1 ? `${legalHoldScopeLabels[first.scope]}, placed ` : 'The first placed '}
          <Instant iso={first.placedAt} />. This verification is kept whatever the retention policy says, and
          its personal data cannot be redacted, until {holds.length === 1 ? 'the hold is' : 'every hold is'}{' '}
          released.
        </Text>
        <AnchorLink
          to="/settings/legal-holds"
          search={legalHoldSearchDefaults}
          size="sm"
          // Dark and underlined on the alert's tint, as the revocation notice's link.
          c="dark.7"
          underline="always"
        >
          See Settings › Legal holds
        </AnchorLink>
      </Stack>
    </Alert>
  );
}

/**
 * One verification and its evidence (DESIGN §5): who (the number, the reference), which form, which channel, when
 * (code sent, verified, how long it took), how many codes were tried, and from where (IP, browser). A description
 * list, so a screen reader reads each value with its label. Then its timeline (issue #18), loaded on its own.
 */
export function VerificationDetailView({
  verification: v,
  accountId,
  actions,
}: {
  verification: VerificationDetail;
  accountId: number;
  /** What the page offers beside the number (the certificate's menu, composed by the route). */
  actions?: ReactNode;
}) {
  const timeToVerify = formatTimeToVerify(v.codeSentAt, v.verifiedAt);
  const evidenceHeading = useId();
  return (
    <Stack gap="lg">
      <Group gap="sm" align="center" justify="space-between">
        <Group gap="sm" align="center">
          <Title order={2} size="h3">
            {formatPhoneForReading(v.cellPhone)}
          </Title>
          {v.isTest && <TestBadge size="md" />}
          {v.revokedAt && <RevokedBadge revokedAt={v.revokedAt} size="md" />}
        </Group>
        <Group gap="sm">
          <FreshLinkAction verification={v} accountId={accountId} />
          {actions}
        </Group>
      </Group>
      {v.redactedAt && (
        <Alert
          color="gray"
          icon={<IconEraser aria-hidden="true" />}
          title={`Personal data redacted on ${formatDate(v.redactedAt)}`}
        >
          The number and e-mail address are masked and the IP address and browser removed, here and in the
          certificate, at the company’s request. The certificate’s seal and place in the chain remain.
        </Alert>
      )}
      {v.revocation && <RevocationNotice revocation={v.revocation} />}
      <LegalHoldNotice holds={v.holds} />
      <Paper withBorder radius="md" p="lg" component="section" aria-label="Verification">
        <SimpleGrid component="dl" cols={{ base: 1, sm: 2, md: 3 }} spacing="lg" m={0}>
          <DetailField label="Cell phone">{v.cellPhone}</DetailField>
          <DetailField label="External ref">{v.externalRefId || notRecorded}</DetailField>
          <DetailField label="Form">
            <AnchorLink to="/forms/$verifyFormId" params={{ verifyFormId: String(v.verifyFormId) }}>
              {v.verifyFormName}
            </AnchorLink>
          </DetailField>
          <DetailField label="Category">{v.verifyFormCategory || notRecorded}</DetailField>
          <DetailField label="Method">
            {methodLabels[v.verificationMethod]}
            {v.verificationMethod === 'email' && v.email ? ` (${v.email})` : ''}
          </DetailField>
          <DetailField label="Source">{sourceLabels[v.source]}</DetailField>
          <DetailField label="Created">
            <Instant iso={v.created} />
          </DetailField>
          {/* Issue #36 item 4: made through a fresh verification link of an earlier verification. */}
          {v.refreshes !== null && (
            <DetailField label="Refreshes">
              <AnchorLink
                to="/activity-log/$verificationId"
                params={{ verificationId: String(v.refreshes) }}
                search={verificationSearchDefaults}
              >
                Verification {v.refreshes}
              </AnchorLink>
            </DetailField>
          )}
        </SimpleGrid>
      </Paper>
      <Paper withBorder radius="md" p="lg" component="section" aria-labelledby={evidenceHeading}>
        <Title order={3} size="h4" mb="md" id={evidenceHeading}>
          Evidence
        </Title>
        <SimpleGrid component="dl" cols={{ base: 1, sm: 2, md: 3 }} spacing="lg" m={0}>
          <DetailField label="Code sent at">
            <Instant iso={v.codeSentAt} />
          </DetailField>
          <DetailField label="Verified at">
            <Instant iso={v.verifiedAt} />
          </DetailField>
          <DetailField label="Time to verify">{timeToVerify ?? notRecorded}</DetailField>
          <DetailField label="Attempts">{v.attempts}</DetailField>
          <DetailField label="IP address">{v.ip ?? notRecorded}</DetailField>
          <DetailField label="User agent">{v.userAgent ?? notRecorded}</DetailField>
          {/* Issue #18: the consent text version shown when the code was asked for, by number and exact hash. */}
          <DetailField label="Consent version">
            {v.consent
              ? `Version ${v.consent.version} (${languageLabels[v.consent.language]})`
              : 'None shown'}
          </DetailField>
          <DetailField label="Consent hash">
            {v.consent ? (
              <Text span ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
                {v.consent.sha256}
              </Text>
            ) : (
              notRecorded
            )}
          </DetailField>
        </SimpleGrid>
      </Paper>
      <NumberChecksCard verification={v} accountId={accountId} />
      <VerificationTimelineCard accountId={accountId} verificationId={v.id} />
    </Stack>
  );
}
