import { Anchor, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { CertificateUnlock, PublicCertificate } from '@veriform/contracts';
import { revokeLinkTexts, revokePagePath } from '@veriform/contracts/revoke-link';
import { useState } from 'react';
import { SectionPaper } from '../../../components/layout/SectionCard';
import { usePageTitle } from '../../../lib/page-title';
import { CertificateDetails } from './CertificateDetails';
import { CertificateFileCheck } from './CertificateFileCheck';
import { CertificateUnlockForm } from './CertificateUnlockForm';
import { CertificateVerdict } from './CertificateVerdict';

/**
 * The public check page (issue #19), no login: the verdict, the certificate as signed (masked), a file check, and the
 * unlock of the number for someone who knows it. A redacted certificate has no number left to unlock.
 */
export function CertificatePage({ certId, certificate }: { certId: string; certificate: PublicCertificate }) {
  usePageTitle('Verification certificate');
  const [unlocked, setUnlocked] = useState<CertificateUnlock | null>(null);
  return (
    <Stack gap="md">
      <CertificateVerdict certificate={certificate} />
      <CertificateFileCheck certId={certId} />
      {certificate.certificate && (
        <CertificateUnlockForm certId={certId} unlocked={unlocked} onUnlocked={setUnlocked} />
      )}
      <CertificateDetails certificate={certificate} unlocked={unlocked} />
      {certificate.certificate && (
        <RevokeConsentLink
          publicId={certificate.certificate.form.publicId}
          language={certificate.certificate.consent?.language ?? 'en'}
        />
      )}
    </Stack>
  );
}

/**
 * Issue #35: the consumer who scanned the certificate's QR code may revoke the consent it proves, on the form's
 * revocation page, in the language the consent was given in. A redacted certificate names no form any more.
 */
function RevokeConsentLink({ publicId, language }: { publicId: string; language: 'en' | 'es' }) {
  return (
    <Text ta="center" lang={language}>
      <Anchor href={revokePagePath(publicId)} underline="always">
        {revokeLinkTexts[language]}
      </Anchor>
    </Text>
  );
}

/** An id no certificate has: said plainly, and the file check still offered (the file may name the right one). */
export function CertificateNotFound({ certId }: { certId: string }) {
  usePageTitle('Certificate not found');
  return (
    <Stack gap="md">
      <SectionPaper aria-labelledby="not-found-title">
        <Stack gap="xs">
          <Title order={1} size="h2" id="not-found-title">
            Certificate not found
          </Title>
          <Text>
            No certificate has the id{' '}
            <Text span ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {certId}
            </Text>
            . Check the link or the id printed on the certificate.
          </Text>
        </Stack>
      </SectionPaper>
      <CertificateFileCheck certId={certId} />
    </Stack>
  );
}

export function CertificatePageSkeleton() {
  return (
    <Stack gap="md" role="group" aria-busy="true" aria-label="Loading certificate">
      <Skeleton height={140} radius="md" />
      <Skeleton height={180} radius="md" />
      <Skeleton height={240} radius="md" />
    </Stack>
  );
}
