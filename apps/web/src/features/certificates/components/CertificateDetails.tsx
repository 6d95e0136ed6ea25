import { Badge, Box, SimpleGrid, Text } from '@mantine/core';
import {
  type Certificate,
  type CertificateUnlock,
  carrierLineTypeLabels,
  languageLabels,
  type PublicCertificate,
} from '@veriform/contracts';
import type { ReactNode } from 'react';
import { DetailField } from '../../../components/layout/DetailField';
import { SectionCard } from '../../../components/layout/SectionCard';
import { AnchorLink } from '../../../components/links';
import { TimelineLines } from '../../../components/TimelineLines';
import { formatDateTime, formatPhoneForReading, methodLabels } from '../../../lib/format';
import { IssuerDomains } from './IssuerDomains';

const notRecorded = (
  <Text span size="sm" c="dimmed">
    Not recorded
  </Text>
);

function Instant({ iso }: { iso: string | null }) {
  return iso ? <time dateTime={iso}>{formatDateTime(iso)}</time> : notRecorded;
}

function Mono({ children }: { children: ReactNode }) {
  return (
    <Text span ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Text>
  );
}

function Fields({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="md" m={0}>
      {children}
    </SimpleGrid>
  );
}

/** The certificate as the public page gets it: as signed, without the evidence only an unlock reveals. */
type ShownCertificate = NonNullable<PublicCertificate['certificate']>;

function VerificationSection({ c, unlocked }: { c: ShownCertificate; unlocked: CertificateUnlock | null }) {
  const v = c.verification;
  return (
    <SectionCard title="Verification">
      <Fields>
        <DetailField label="Company">
          {c.account.name} — <IssuerDomains domains={c.account.verifiedDomains ?? []} />
        </DetailField>
        <DetailField label="Form">{c.form.name}</DetailField>
        <DetailField label="Phone number">
          {unlocked ? (
            <>
              {formatPhoneForReading(unlocked.cellPhone)}{' '}
              <Text span size="xs" c="dimmed">
                (unlocked)
              </Text>
            </>
          ) : (
            v.cellPhone
          )}
          {v.isTest && (
            <Badge ml="xs" size="sm" variant="light" color="orange" c="dark.6">
              Test
            </Badge>
          )}
        </DetailField>
        <DetailField label="Channel">{methodLabels[v.channel]}</DetailField>
        {(v.email || unlocked?.email) && (
          <DetailField label="E-mail">{unlocked?.email ?? v.email}</DetailField>
        )}
        <DetailField label="External reference">{v.externalRefId || notRecorded}</DetailField>
        <DetailField label="Started">
          <Instant iso={v.created} />
        </DetailField>
        <DetailField label="Code sent">
          <Instant iso={v.codeSent} />
        </DetailField>
        <DetailField label="Verified">
          <Instant iso={v.verified} />
        </DetailField>
        <DetailField label="Attempts">{c.attempts.count}</DetailField>
        <DetailField label="Codes entered">{c.attempts.codesEntered}</DetailField>
        <DetailField label="Wrong codes">{c.attempts.wrongCodes}</DetailField>
        {/* Issue #36: signed with the certificate when the carrier was asked (absent from earlier certificates). */}
        {c.carrier && (
          <DetailField label="Line type">
            {carrierLineTypeLabels[c.carrier.lineType]}
            {c.carrier.name ? ` (${c.carrier.name})` : ''}
          </DetailField>
        )}
        {c.simSwap && (
          <DetailField label="Last SIM swap">
            {c.simSwap.lastSwapAt ? <Instant iso={c.simSwap.lastSwapAt} /> : 'No date given by the carrier'}
            {c.simSwap.withinWindow
              ? ` — within the ${c.simSwap.windowDays}-day window before the code`
              : ` — not within the ${c.simSwap.windowDays}-day window`}
          </DetailField>
        )}
        {/* Issue #36 item 4: signed when the verification was made through a fresh verification link. */}
        {c.refreshes && (
          <DetailField label="Refreshes">
            Verification <Mono>{c.refreshes.apiVerificationId}</Mono>
            {c.refreshes.certificateId ? (
              <>
                {', certificate '}
                <AnchorLink to="/certificates/$certId" params={{ certId: c.refreshes.certificateId }}>
                  {c.refreshes.certificateId}
                </AnchorLink>
              </>
            ) : (
              ' (no certificate was issued for it)'
            )}
          </DetailField>
        )}
        {unlocked && (
          <>
            <DetailField label="IP address">
              {unlocked.evidence.ip ? <Mono>{unlocked.evidence.ip}</Mono> : notRecorded}
            </DetailField>
            <DetailField label="Browser (user agent)">
              {unlocked.evidence.userAgent ? <Mono>{unlocked.evidence.userAgent}</Mono> : notRecorded}
            </DetailField>
          </>
        )}
      </Fields>
    </SectionCard>
  );
}

function ConsentSection({ consent }: { consent: NonNullable<Certificate['consent']> }) {
  return (
    <SectionCard title="Consent">
      <Fields>
        <DetailField label="Version">Version {consent.version}</DetailField>
        <DetailField label="Language">{languageLabels[consent.language]}</DetailField>
        <DetailField label="Hash (SHA-256)">
          <Mono>{consent.sha256}</Mono>
        </DetailField>
      </Fields>
      <Text size="xs" c="dimmed" mb={-8}>
        The text the consumer was shown
      </Text>
      <Box
        component="blockquote"
        lang={consent.language}
        m={0}
        p="sm"
        bg="gray.0"
        style={{ borderLeft: '3px solid var(--mantine-color-gray-4)', borderRadius: 4 }}
      >
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {consent.text}
        </Text>
      </Box>
    </SectionCard>
  );
}

function SealSection({ certificate: pc }: { certificate: PublicCertificate }) {
  const c = pc.certificate;
  return (
    <SectionCard title="Seal">
      <Fields>
        <DetailField label="Certificate">
          <Mono>{pc.id}</Mono>
        </DetailField>
        <DetailField label="Signing key">
          <Mono>
            {pc.signature.keyId} ({pc.signature.alg})
          </Mono>
        </DetailField>
        {c && (
          <>
            <DetailField label="Record hash (SHA-256)">
              <Mono>{c.record.sha256}</Mono>
            </DetailField>
            <DetailField label="Place in the company’s chain">
              No. {c.chain.seq}
              {c.chain.prevHash ? (
                <>
                  , after <Mono>{c.chain.prevHash}</Mono>
                </>
              ) : (
                ' (the first)'
              )}
            </DetailField>
          </>
        )}
      </Fields>
    </SectionCard>
  );
}

/**
 * The certificate as signed, with the number and address masked (unless unlocked): the verification, the consent text
 * the consumer was shown, the page, the timeline and the seal. IP address and browser are in the signed file, but the
 * server sends them only with an unlock, and only then are they shown. A redacted certificate shows its seal only.
 */
export function CertificateDetails({
  certificate: pc,
  unlocked,
}: {
  certificate: PublicCertificate;
  unlocked: CertificateUnlock | null;
}) {
  const c = pc.certificate;
  if (!c) return <SealSection certificate={pc} />;
  return (
    <>
      <VerificationSection c={c} unlocked={unlocked} />
      {c.consent ? (
        <ConsentSection consent={c.consent} />
      ) : (
        <SectionCard title="Consent">
          <Text size="sm">The form showed no consent text.</Text>
        </SectionCard>
      )}
      <SectionCard title="Page">
        {c.page ? (
          <Fields>
            <DetailField label="Address">
              <Mono>{c.page.url}</Mono>
            </DetailField>
            <DetailField label="Reference">{c.page.reference ?? notRecorded}</DetailField>
          </Fields>
        ) : (
          <Text size="sm">Made through the API, not a hosted page.</Text>
        )}
      </SectionCard>
      <SectionCard title="Timeline">
        {c.timeline.length ? (
          <TimelineLines events={c.timeline} />
        ) : (
          <Text size="sm">No timeline was recorded.</Text>
        )}
      </SectionCard>
      <SealSection certificate={pc} />
    </>
  );
}
