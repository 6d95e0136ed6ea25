import { Group, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { WEBHOOK_EVENT_RETENTION_DAYS, webhookReplayTexts } from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
import { notify } from '../../../lib/notify';
import { useReplayFailedWebhooksMutation } from '../api';

const labels = { since: 'From', until: 'To' } as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** A `datetime-local` value (the viewer's local time) for an instant. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value back to an ISO instant, or null when it is empty or not a time. */
function toIso(local: string): string | null {
  const time = new Date(local).getTime();
  return local && Number.isFinite(time) ? new Date(time).toISOString() : null;
}

export function queuedText(queued: number): string {
  if (queued === 0) return 'No failed events in that range: nothing to replay.';
  return queued === 1 ? '1 event queued for replay.' : `${queued} events queued for replay.`;
}

/**
 * Sends again every event of a time range that this endpoint should have received and did not (failed for good, or
 * missed while it was disabled), each with its own `webhook-id`.
 */
export function ReplayFailedModal({
  accountId,
  endpointId,
  onClose,
}: {
  accountId: number;
  endpointId: number;
  onClose: () => void;
}) {
  const replay = useReplayFailedWebhooksMutation(accountId, endpointId);
  const now = new Date();
  const form = useForm({
    initialValues: {
      since: toLocalInput(new Date(now.getTime() - 24 * 3600 * 1000)),
      until: toLocalInput(new Date(now.getTime() + 60 * 1000)),
    },
    validate: {
      since: (value) => (toIso(value) ? null : 'Required'),
      until: (value, values) => {
        const until = toIso(value);
        const since = toIso(values.since);
        if (!until) return 'Required';
        return since && Date.parse(since) >= Date.parse(until) ? webhookReplayTexts.rangeOrder : null;
      },
    },
  });

  const send = (values: typeof form.values) => {
    const since = toIso(values.since);
    const until = toIso(values.until);
    // Validation has checked both: this only narrows them.
    if (!since || !until) return Promise.reject(new Error(webhookReplayTexts.rangeOrder));
    return replay.mutateAsync({ since, until });
  };

  return (
    <FormModal
      onClose={onClose}
      title="Replay failed events"
      form={form}
      mutation={replay}
      labels={labels}
      submit={send}
      onDone={({ queued }) => {
        notify.success('Replay of failed events', queuedText(queued));
        onClose();
      }}
      submitLabel="Replay failed events"
    >
      <Text size="sm">
        Events of the range that failed for good, or happened while the endpoint was disabled, are sent again
        with their own <code>webhook-id</code>. Events are kept for {WEBHOOK_EVENT_RETENTION_DAYS} days.
      </Text>
      <Group grow gap="sm" wrap="wrap">
        <TextInput
          type="datetime-local"
          label={labels.since}
          required
          data-autofocus
          miw={200}
          {...form.getInputProps('since')}
        />
        <TextInput
          type="datetime-local"
          label={labels.until}
          required
          miw={200}
          {...form.getInputProps('until')}
        />
      </Group>
    </FormModal>
  );
}
