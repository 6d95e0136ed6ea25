import { Badge, Button, Group, Menu } from '@mantine/core';
import { IconBan, IconChevronDown, IconDownload, IconEraser, IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { VerificationDetail } from '@veriform/contracts';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import {
  certificateDownloadUrl,
  certificatePagePath,
  certificateStandingQueryOptions,
  useRedactVerificationMutation,
} from '../api';
import { formatDate, standingSentence } from '../standing';
import { RevokeCertificateModal } from './RevokeCertificateModal';

/**
 * The first download issues the certificate, but in the browser's own download (a plain link), which the page cannot
 * see finish: after a download of a certificate not yet issued, its standing is read again this often until the
 * server has it (so "Open its public check page" shows without a reload), for at most ISSUE_WATCH_MS.
 */
export const ISSUE_POLL_MS = 1000;
export const ISSUE_WATCH_MS = 30_000;

/**
 * The verification detail page's "Certificate" menu (issue #19): download the certificate as PDF or signed JSON (plain
 * links: the server answers attachments, and the first download issues it), open its public check page once issued,
 * and for owners (manageEvidence) revoke it or redact the consumer's personal data. A revoked certificate is marked
 * beside the menu.
 */
export function CertificateActions({
  accountId,
  verification,
  canManageEvidence,
}: {
  accountId: number;
  verification: VerificationDetail;
  canManageEvidence: boolean;
}) {
  const { api } = useServices();
  // When a download of a certificate not yet issued was started (null: none).
  const [downloadedAt, setDownloadedAt] = useState<number | null>(null);
  const { data: standing } = useQuery({
    ...certificateStandingQueryOptions(api, accountId, verification.id),
    refetchInterval: (query) =>
      downloadedAt !== null && !query.state.data?.certificateId && Date.now() - downloadedAt < ISSUE_WATCH_MS
        ? ISSUE_POLL_MS
        : false,
  });
  const redact = useRedactVerificationMutation(accountId, verification.id);
  const [revoking, setRevoking] = useState(false);
  const [redacting, setRedacting] = useState(false);
  const revoked = standing?.revokedAt != null;
  const sentence = standing ? standingSentence(standing) : null;
  const watchIssue = () => {
    if (!standing?.certificateId) setDownloadedAt(Date.now());
  };

  const confirmRedact = () =>
    redact.mutate(undefined, {
      onSuccess: () => {
        setRedacting(false);
        notify.success('Personal data redacted', 'The number is masked here and in the certificate.');
      },
      onError: (error) => notify.error('Could not redact the personal data', errorDisplayText(error)),
    });

  return (
    <Group gap="sm">
      {revoked && standing?.revokedAt && (
        <Badge variant="light" color="red" c="dark.6" leftSection={<IconBan size={12} aria-hidden="true" />}>
          Certificate revoked {formatDate(standing.revokedAt)}
        </Badge>
      )}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" rightSection={<IconChevronDown size={16} aria-hidden="true" />}>
            Certificate
          </Button>
        </Menu.Target>
        <Menu.Dropdown maw={360}>
          {sentence && <Menu.Label style={{ whiteSpace: 'normal' }}>{sentence}</Menu.Label>}
          <Menu.Item
            component="a"
            href={certificateDownloadUrl(accountId, verification.id, 'pdf')}
            download
            onClick={watchIssue}
            leftSection={<IconDownload size={16} aria-hidden="true" />}
          >
            Download certificate (PDF)
          </Menu.Item>
          <Menu.Item
            component="a"
            href={certificateDownloadUrl(accountId, verification.id, 'json')}
            download
            onClick={watchIssue}
            leftSection={<IconDownload size={16} aria-hidden="true" />}
          >
            Download certificate (JSON)
          </Menu.Item>
          {standing?.certificateId && (
            <Menu.Item
              component="a"
              href={certificatePagePath(standing.certificateId)}
              target="_blank"
              rel="noopener"
              leftSection={<IconExternalLink size={16} aria-hidden="true" />}
            >
              Open its public check page
            </Menu.Item>
          )}
          {canManageEvidence && (!revoked || !verification.redactedAt) && <Menu.Divider />}
          {canManageEvidence && !revoked && (
            <Menu.Item
              // red.8: Mantine's red.6 text on white is 3.6:1, below AA's 4.5:1.
              color="red.8"
              leftSection={<IconBan size={16} aria-hidden="true" />}
              onClick={() => setRevoking(true)}
            >
              Revoke certificate…
            </Menu.Item>
          )}
          {canManageEvidence && !verification.redactedAt && (
            <Menu.Item
              color="red.8"
              leftSection={<IconEraser size={16} aria-hidden="true" />}
              onClick={() => setRedacting(true)}
            >
              Redact personal data…
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      {canManageEvidence && (
        <>
          <RevokeCertificateModal
            opened={revoking}
            onClose={() => setRevoking(false)}
            accountId={accountId}
            verificationId={verification.id}
          />
          <ConfirmModal
            opened={redacting}
            title="Redact personal data"
            confirmLabel="Redact personal data"
            loading={redact.isPending}
            onConfirm={confirmRedact}
            onCancel={() => setRedacting(false)}
          >
            The consumer’s phone number and e-mail address are masked for good, and the IP address and browser
            removed, on this page and in the verification’s certificate, whose content is deleted. The
            certificate’s seal (its hash and signature) and its place in the chain remain, and its check page
            will say it was redacted, with the date. This cannot be undone.
          </ConfirmModal>
        </>
      )}
    </Group>
  );
}
