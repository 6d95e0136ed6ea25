import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import type { WebhookEndpoint } from '@veriform/contracts';
import { useState } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { notify } from '../../../lib/notify';
import { useRotateWebhookSecretMutation } from '../api';
import { overlapOptions } from '../labels';

const labels = { overlapHours: 'Keep the old secret signing' } as const;

/**
 * A new secret signs from now on; for the chosen overlap the old one signs too (both signatures in one header), so
 * receivers can switch without missing a delivery.
 */
export function RotateSecretModal({
  accountId,
  endpoint,
  onClose,
}: {
  accountId: number;
  endpoint: WebhookEndpoint;
  onClose: () => void;
}) {
  const rotate = useRotateWebhookSecretMutation(accountId);
  const [overlap, setOverlap] = useState<string>('24');
  const close = () => !rotate.isPending && onClose();

  const submit = () => {
    const overlapHours = Number(overlap);
    rotate.mutate(
      { id: endpoint.id, overlapHours },
      {
        onSuccess: (rotated) => {
          const chosen = overlapOptions.find((option) => option.value === overlap);
          notify.success(
            'Secret rotated',
            overlapHours === 0
              ? `The new secret (${rotated.secretPreview}) signs from now on; the old one no longer does.`
              : `The new secret (${rotated.secretPreview}) signs from now on; the old one too for ${chosen?.label ?? `${overlapHours} hours`}.`,
          );
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened onClose={close} title="Rotate secret" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <FormErrorAlert error={rotate.error} labels={labels} inlineFields={[]} />
          <Text size="sm">
            A new secret replaces {endpoint.secretPreview}. Update your receiver to accept it before the old
            one stops signing.
          </Text>
          <Radio.Group label={labels.overlapHours} value={overlap} onChange={setOverlap}>
            <Stack gap="xs" mt="xs">
              {overlapOptions.map((option, i) => (
                <Radio
                  key={option.value}
                  value={option.value}
                  label={option.label}
                  data-autofocus={i === 2 || undefined}
                />
              ))}
            </Stack>
          </Radio.Group>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={rotate.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={rotate.isPending}>
              Rotate secret
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
