import { Alert, Button, Modal, Stack, Text } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import type { VerificationDetail } from '@veriform/contracts';
import { useState } from 'react';
import { SecretField } from '../../../components/form/SecretField';
import { errorDisplayText } from '../../../lib/error-text';
import { useServices } from '../../../lib/services';
import { refreshVerification } from '../api';

export const FRESH_LINK_LABEL = 'Fresh verification link';

/** Why the consent needs refreshing, when the detail knows it: revoked, or the number reassigned since. */
function refreshReason(v: VerificationDetail): string | null {
  if (v.revocation || v.revokedAt) return 'The consumer revoked this consent.';
  if (v.reassignment?.answer === 'yes') return 'The number was reassigned since this consent.';
  return null;
}

/**
 * "Fresh verification link" (issue #36 item 4, ADR 44): for an approved verification that was not redacted, a link to
 * the form's hosted page bound to this one. The verification the consumer makes there refreshes this one and keeps its
 * reference. Each opening makes a new link, shown once (the server keeps only its hash), with a copy button. The button
 * is prominent when the detail says why the consent needs refreshing.
 */
export function FreshLinkAction({
  verification: v,
  accountId,
}: {
  verification: VerificationDetail;
  accountId: number;
}) {
  const { api } = useServices();
  const [opened, setOpened] = useState(false);
  const make = useMutation({ mutationFn: () => refreshVerification(api, accountId, v.id) });
  if (v.redactedAt || v.verifiedAt === null) return null;
  const reason = refreshReason(v);
  const open = () => {
    setOpened(true);
    make.mutate();
  };
  const close = () => {
    setOpened(false);
    make.reset();
  };
  return (
    <>
      <Button
        variant={reason ? 'filled' : 'default'}
        leftSection={<IconLink size={16} aria-hidden="true" />}
        onClick={open}
      >
        {FRESH_LINK_LABEL}
      </Button>
      <Modal opened={opened} onClose={close} title={FRESH_LINK_LABEL} centered size="lg">
        <Stack gap="md">
          {reason && (
            <Text size="sm" fw={600}>
              {reason}
            </Text>
          )}
          <Text size="sm">
            Send this link to the consumer. The verification they make there refreshes this one
            {v.externalRefId ? ` and keeps its reference, ${v.externalRefId}` : ''}. It works for 30 days;
            copy it now, it is not shown again.
          </Text>
          {make.error ? (
            <Alert color="red" role="alert" title="The link could not be made">
              {errorDisplayText(make.error)}
            </Alert>
          ) : (
            <SecretField
              label="Link"
              secret={make.data?.hostedUrl ?? ''}
              loading={make.isPending}
              copyLabel="Copy link"
              copiedStatus="Link copied"
              onDone={close}
            />
          )}
        </Stack>
      </Modal>
    </>
  );
}
