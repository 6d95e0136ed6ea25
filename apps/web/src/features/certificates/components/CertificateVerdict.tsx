import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import type { PublicCertificate } from '@veriform/contracts';
import { SectionPaper } from '../../../components/layout/SectionCard';
import { formatDateTime } from '../../../lib/format';
import { consentRevokedSentence, reassignmentSentence, standingSentence } from '../standing';
import { CertificateStatusBadge } from './CertificateStatusBadge';
import { IssuerDomains, NAME_NOT_VERIFIED_NOTE } from './IssuerDomains';

/**
 * The page's answer first: who issued it and when — with the company's verified domain, or "name not verified" — and
 * whether it still stands (in words, with the date).
 */
export function CertificateVerdict({ certificate }: { certificate: PublicCertificate }) {
  const sentence = standingSentence(certificate);
  const consent = consentRevokedSentence(certificate);
  const reassigned = reassignmentSentence(certificate);
  return (
    <SectionPaper aria-labelledby="certificate-title">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Title order={1} size="h2" id="certificate-title">
            Verification certificate
          </Title>
          <CertificateStatusBadge status={certificate.status} />
        </Group>
        <Text data-testid="issued-by">
          Issued <time dateTime={certificate.issuedAt}>{formatDateTime(certificate.issuedAt)}</time> by{' '}
          <Text span fw={600} inherit>
            {certificate.company}
          </Text>{' '}
          — <IssuerDomains domains={certificate.companyDomains} />
        </Text>
        {certificate.companyDomains.length === 0 && (
          <Text size="sm" c="dimmed">
            {NAME_NOT_VERIFIED_NOTE}
          </Text>
        )}
        <Text size="sm" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {certificate.id}
        </Text>
        {sentence && (
          <Alert
            color={certificate.status === 'revoked' ? 'red' : 'gray'}
            icon={
              certificate.status === 'revoked' ? (
                <IconAlertTriangle aria-hidden="true" />
              ) : (
                <IconInfoCircle aria-hidden="true" />
              )
            }
            title={
              certificate.status === 'revoked'
                ? 'This certificate was revoked'
                : certificate.status === 'purged'
                  ? 'Content removed under the retention policy'
                  : 'Personal data redacted'
            }
          >
            {sentence}
          </Alert>
        )}
        {consent && (
          <Alert color="yellow" icon={<IconInfoCircle aria-hidden="true" />} title="Consent revoked">
            {consent}
          </Alert>
        )}
        {reassigned && (
          <Alert
            color={certificate.reassignment?.answer === 'yes' ? 'red' : 'gray'}
            icon={
              certificate.reassignment?.answer === 'yes' ? (
                <IconAlertTriangle aria-hidden="true" />
              ) : (
                <IconInfoCircle aria-hidden="true" />
              )
            }
            title="Reassigned-number check"
          >
            {reassigned}
          </Alert>
        )}
      </Stack>
    </SectionPaper>
  );
}
