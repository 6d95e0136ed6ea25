import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconFileUnknown, IconShieldCheck, IconShieldX, IconUpload, IconX } from '@tabler/icons-react';
import { CERTIFICATE_UPLOAD_MAX_BYTES, type CertificateCheck } from '@veriform/contracts';
import { useId, useRef, useState } from 'react';
import { SectionCard } from '../../../components/layout/SectionCard';
import { AnchorLink } from '../../../components/links';
import { ApiValidationError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { useCheckCertificateMutation } from '../api';
import { consentRevokedSentence, reassignmentSentence, standingSentence } from '../standing';

/** By extension too: a JSON file often comes without a type (or as text/plain) from a phone's file picker. */
const ACCEPT = { 'application/pdf': ['.pdf'], 'application/json': ['.json'] };
const MAX_MB = CERTIFICATE_UPLOAD_MAX_BYTES / (1024 * 1024);

export const checkTexts = {
  wrongType: 'Choose the certificate’s PDF or JSON file.',
  tooLarge: `The file is larger than ${MAX_MB} MB; a certificate is much smaller.`,
  oneFile: 'Choose one file at a time.',
} as const;

function rejectionText(rejections: readonly FileRejection[]): string {
  const codes = rejections.flatMap((rejection) => rejection.errors.map((error) => error.code));
  if (codes.includes('too-many-files')) return checkTexts.oneFile;
  if (codes.includes('file-too-large')) return checkTexts.tooLarge;
  return checkTexts.wrongType;
}

function CheckResult({ result, certId }: { result: CertificateCheck; certId: string }) {
  if (result.verdict === 'authentic') {
    const standing = result.standing ? standingSentence(result.standing) : null;
    const consent = result.standing ? consentRevokedSentence(result.standing) : null;
    const reassigned = result.standing ? reassignmentSentence(result.standing) : null;
    const other = result.certificateId && result.certificateId !== certId ? result.certificateId : null;
    return (
      <Alert
        role="status"
        color={standing || consent ? 'yellow' : 'green'}
        icon={<IconShieldCheck aria-hidden="true" />}
        title="Authentic"
      >
        <Stack gap={4}>
          <Text size="sm">
            Authentic — issued{' '}
            {result.issuedAt ? (
              <time dateTime={result.issuedAt}>{formatDateTime(result.issuedAt)}</time>
            ) : (
              'at an unknown time'
            )}{' '}
            by {result.company ?? 'an unknown company'}. Not a byte was changed since it was signed.
          </Text>
          {standing && <Text size="sm">{standing}</Text>}
          {consent && <Text size="sm">{consent}</Text>}
          {reassigned && <Text size="sm">{reassigned}</Text>}
          {other && (
            <Text size="sm">
              It is another certificate than this page’s:{' '}
              <AnchorLink to="/certificates/$certId" params={{ certId: other }}>
                open {other}
              </AnchorLink>
            </Text>
          )}
        </Stack>
      </Alert>
    );
  }
  if (result.verdict === 'altered') {
    return (
      <Alert role="alert" color="red" icon={<IconShieldX aria-hidden="true" />} title="Altered">
        <Text size="sm">
          Altered — {(result.reason ?? 'the file is not as it was signed').replace(/\.$/, '')}. Do not rely on
          what it says.
        </Text>
      </Alert>
    );
  }
  return (
    <Alert
      role="alert"
      color="gray"
      icon={<IconFileUnknown aria-hidden="true" />}
      title="Not a Veriform certificate"
    >
      <Text size="sm">
        {result.reason ??
          'The file is not a certificate issued by Veriform, or it was signed by a key Veriform never published.'}
      </Text>
    </Alert>
  );
}

/**
 * "Check a certificate file": drop (or choose, with a real button) the PDF or JSON someone gave you; the server checks
 * the signature against every published key and says whether the file is authentic, altered or not ours. Nothing is
 * stored.
 */
export function CertificateFileCheck({ certId }: { certId: string }) {
  const check = useCheckCertificateMutation();
  const openRef = useRef<() => void>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const hintId = useId();

  const onDrop = (files: File[]) => {
    const file = files[0];
    if (!file) return;
    setRefusal(null);
    setFileName(file.name);
    check.mutate(file);
  };

  const onReject = (rejections: FileRejection[]) => {
    check.reset();
    setFileName(null);
    setRefusal(rejectionText(rejections));
  };

  const failure = check.error
    ? check.error instanceof ApiValidationError
      ? (check.error.fieldErrors.file ?? check.error.message)
      : errorDisplayText(check.error)
    : null;

  return (
    <SectionCard title="Check a certificate file">
      <Text size="sm" id={hintId}>
        Have the certificate’s PDF or JSON file? Drop it here to see whether it is authentic: signed by
        Veriform and not changed since. PDF or JSON, up to {MAX_MB} MB; the file is checked, not kept.
      </Text>
      <Dropzone
        onDrop={onDrop}
        onReject={onReject}
        accept={ACCEPT}
        maxSize={CERTIFICATE_UPLOAD_MAX_BYTES}
        maxFiles={1}
        multiple={false}
        loading={check.isPending}
        openRef={openRef}
        // The button below is the keyboard's way in: the drop area itself is not a second tab stop.
        activateOnKeyboard={false}
        inputProps={{ 'aria-label': 'Certificate file', 'aria-describedby': hintId }}
      >
        <Group justify="center" gap="md" mih={96} style={{ pointerEvents: 'none' }} wrap="nowrap">
          <Dropzone.Accept>
            <IconUpload size={36} stroke={1.5} aria-hidden="true" />
          </Dropzone.Accept>
          <Dropzone.Reject>
            <IconX size={36} stroke={1.5} aria-hidden="true" />
          </Dropzone.Reject>
          <Dropzone.Idle>
            <IconUpload size={36} stroke={1.5} aria-hidden="true" />
          </Dropzone.Idle>
          <Text size="sm" fw={500}>
            Drag the file here
          </Text>
        </Group>
      </Dropzone>
      <Group gap="sm">
        <Button variant="default" onClick={() => openRef.current?.()} loading={check.isPending}>
          Choose a file…
        </Button>
        {fileName && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {check.isPending ? `Checking ${fileName}…` : fileName}
          </Text>
        )}
      </Group>
      {refusal && (
        <Alert role="alert" color="red" icon={<IconX aria-hidden="true" />}>
          {refusal}
        </Alert>
      )}
      {failure && (
        <Alert
          role="alert"
          color="red"
          icon={<IconX aria-hidden="true" />}
          title="The file could not be checked"
        >
          {failure}
        </Alert>
      )}
      {check.data && <CheckResult result={check.data} certId={certId} />}
    </SectionCard>
  );
}
