import { Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  type LegalHold,
  MAX_LEGAL_HOLD_REASON_LENGTH,
  releaseLegalHoldRequestSchema,
} from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
import { useReleaseLegalHoldMutation } from '../api';
import { legalHoldTarget } from '../labels';

const labels = { reason: 'Reason' } as const;

/** Releases a hold, once, with the reason (issue #37 item 2): its evidence follows the retention policy again. */
export function ReleaseHoldModal({
  accountId,
  hold,
  onClose,
  onReleased,
}: {
  accountId: number;
  hold: LegalHold | null;
  onClose: () => void;
  onReleased: (hold: LegalHold) => void;
}) {
  const release = useReleaseLegalHoldMutation(accountId);
  const form = useForm({
    initialValues: { reason: '' },
    validate: schemaResolver(releaseLegalHoldRequestSchema, { sync: true }),
  });
  return (
    <FormModal
      opened={hold !== null}
      onClose={onClose}
      title="Release the legal hold"
      form={form}
      mutation={release}
      labels={labels}
      submit={(values) => release.mutateAsync({ id: hold?.id ?? '', reason: values.reason })}
      onDone={onReleased}
      submitLabel="Release hold"
      intro={
        hold
          ? `The hold on ${legalHoldTarget(hold)} (“${hold.reason}”) ends: its evidence follows the retention policy again and may be redacted. This cannot be undone; place a new hold if needed.`
          : undefined
      }
    >
      <Textarea
        label={labels.reason}
        description="Why the evidence no longer needs to be kept: the case settled, the inquiry closed"
        required
        minRows={2}
        maxLength={MAX_LEGAL_HOLD_REASON_LENGTH}
        data-autofocus
        {...form.getInputProps('reason')}
      />
    </FormModal>
  );
}
