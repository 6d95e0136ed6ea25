import { Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconHandStop } from '@tabler/icons-react';
import type { ContactabilityCheck } from '@veriform/contracts';
import { CardFields } from '../../../components/data-list/DataList';
import { DetailField } from '../../../components/layout/DetailField';
import { AnchorLink } from '../../../components/links';
import { formatDateTime, formatPhoneForReading } from '../../../lib/format';
import { verificationSearchDefaults } from '../../../lib/verification-search';
import { channelLabels, purposeLabels, verdictLabel } from '../labels';

/** An instant in the number's own zone ("Fri, Jan 15, 2027, 12:00 PM EST"); in the viewer's if the zone is unknown. */
export function formatInZone(iso: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat(undefined, {
      weekday: 'short',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone,
      timeZoneName: 'short',
    }).format(new Date(iso));
  } catch {
    return formatDateTime(iso);
  }
}

const instant = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

/** Why it is allowed, in words (the reasons say why not). */
function allowedText(verdict: ContactabilityCheck): string {
  if (verdict.purpose === 'marketing')
    return 'Consent stands, and the number’s local time is within every calling window.';
  return 'Consent stands. Quiet hours do not apply to informational contacts.';
}

function Consent({ verdict }: { verdict: ContactabilityCheck }) {
  const { consent, consentLogId } = verdict;
  if (!consent) return <>None on record</>;
  return (
    <>
      Verified on {instant(consent.verifiedAt)}
      {consentLogId !== null && (
        <>
          {' '}
          <AnchorLink
            to="/activity-log/$verificationId"
            params={{ verificationId: String(consentLogId) }}
            search={verificationSearchDefaults}
            size="sm"
            aria-label={`Open the verification of ${formatPhoneForReading(verdict.phone)}`}
          >
            Open the verification
          </AnchorLink>
        </>
      )}
    </>
  );
}

function LocalTime({ verdict }: { verdict: ContactabilityCheck }) {
  if (!verdict.timeZone) return <>Unknown: the number’s area code places it in no time zone</>;
  return (
    <>
      <time dateTime={verdict.localTime ?? verdict.at}>{formatInZone(verdict.at, verdict.timeZone)}</time>
      <Text span size="sm" c="dimmed">
        {' '}
        ({verdict.timeZone}
        {verdict.state ? `, ${verdict.state}` : ''})
      </Text>
    </>
  );
}

function windowText(open: boolean | null): string {
  if (open === null) return 'Unknown';
  return open ? 'Open' : 'Closed';
}

/**
 * A verdict as a member reads it before calling or texting: Allowed or Not now, why not (each reason in full), the
 * consent relied on (with its verification) and any revocation since, the number's local time and zone, when it may
 * be contacted if only the window refuses, who asked and when.
 */
export function VerdictPanel({
  verdict,
  headingOrder = 3,
}: {
  verdict: ContactabilityCheck;
  headingOrder?: 2 | 3 | 4;
}) {
  const { allowed } = verdict;
  const color = allowed ? 'green' : 'red';
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      style={{ borderInlineStart: `4px solid var(--mantine-color-${color}-7)` }}
      aria-label={`Verdict for ${formatPhoneForReading(verdict.phone)}`}
      component="section"
    >
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap" align="center">
          <ThemeIcon color={color} variant="light" size={36} radius="xl" aria-hidden="true">
            {allowed ? <IconCircleCheck size={22} /> : <IconHandStop size={22} />}
          </ThemeIcon>
          <div style={{ minWidth: 0 }}>
            <Title order={headingOrder} size="h3" c={allowed ? 'green.9' : 'red.9'}>
              {verdictLabel(allowed)}
            </Title>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {formatPhoneForReading(verdict.phone)} · {purposeLabels[verdict.purpose]} ·{' '}
              {channelLabels[verdict.channel]}
            </Text>
          </div>
        </Group>
        {allowed ? (
          <Text size="sm">{allowedText(verdict)}</Text>
        ) : (
          <List size="sm" spacing={4} aria-label="Why not">
            {verdict.reasons.map((reason) => (
              <List.Item key={reason.code}>{reason.text}</List.Item>
            ))}
          </List>
        )}
        <CardFields>
          <DetailField label="Consent">
            <Consent verdict={verdict} />
          </DetailField>
          {verdict.revokedAt && <DetailField label="Revoked on">{instant(verdict.revokedAt)}</DetailField>}
          <DetailField label="Local time then">
            <LocalTime verdict={verdict} />
          </DetailField>
          <DetailField label="Calling window">{windowText(verdict.withinCallingWindow)}</DetailField>
          {verdict.nextAllowedAt && (
            <DetailField label="Next allowed at">
              {instant(verdict.nextAllowedAt)}
              {verdict.timeZone && (
                <Text span size="sm" c="dimmed">
                  {' '}
                  ({formatInZone(verdict.nextAllowedAt, verdict.timeZone)} there)
                </Text>
              )}
            </DetailField>
          )}
          <DetailField label="Asked about">{instant(verdict.at)}</DetailField>
          <DetailField label="Checked">
            {instant(verdict.checkedAt)} by {verdict.askedBy}
          </DetailField>
        </CardFields>
      </Stack>
    </Paper>
  );
}
