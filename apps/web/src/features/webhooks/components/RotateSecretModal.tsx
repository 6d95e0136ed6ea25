import { Radio, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { WebhookEndpoint } from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
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
  const form = useForm({ initialValues: { overlap: '24' } });

  const done = (rotated: WebhookEndpoint, overlap: string) => {
    const overlapHours = Number(overlap);
    const chosen = overlapOptions.find((option) => option.value === overlap);
    notify.success(
      'Secret rotated',
      overlapHours === 0
        ? `The new secret (${rotated.secretPreview}) signs from now on; the old one no longer does.`
        : `The new secret (${rotated.secretPreview}) signs from now on; the old one too for ${chosen?.label ?? `${overlapHours} hours`}.`,
    );
    onClose();
  };

  return (
    <FormModal
      onClose={onClose}
      title="Rotate secret"
      form={form}
      mutation={rotate}
      labels={labels}
      inlineFields={[]}
      submit={async ({ overlap }) => ({
        rotated: await rotate.mutateAsync({ id: endpoint.id, overlapHours: Number(overlap) }),
        overlap,
      })}
      onDone={({ rotated, overlap }) => done(rotated, overlap)}
      submitLabel="Rotate secret"
    >
      <Text size="sm">
        A new secret replaces {endpoint.secretPreview}. Update your receiver to accept it before the old one
        stops signing.
      </Text>
      <Radio.Group label={labels.overlapHours} {...form.getInputProps('overlap')}>
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
    </FormModal>
  );
}
