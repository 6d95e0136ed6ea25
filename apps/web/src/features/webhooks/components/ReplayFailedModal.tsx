import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { WEBHOOK_EVENT_RETENTION_DAYS, webhookReplayTexts } from '@veriform/contracts';
import { useRef } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { notify } from '../../../lib/notify';
import { useReplayFailedWebhooksMutation } from '../api';

const labels = { since: 'From', until: 'To' } as const;
const fields = Object.keys(labels);

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
  const formRef = useRef<HTMLFormElement>(null);
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
  const close = () => !replay.isPending && onClose();

  const handleSubmit = form.onSubmit(
    async (values) => {
      const since = toIso(values.since);
      const until = toIso(values.until);
      if (!since || !until || replay.isPending) return;
      try {
        const { queued } = await replay.mutateAsync({ since, until });
        notify.success('Replay of failed events', queuedText(queued));
        onClose();
      } catch (error) {
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  return (
    <Modal
      opened
      onClose={close}
      title="Replay failed events"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form ref={formRef} onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <FormErrorAlert error={replay.error} labels={labels} inlineFields={fields} />
          <Text size="sm">
            Events of the range that failed for good, or happened while the endpoint was disabled, are sent
            again with their own <code>webhook-id</code>. Events are kept for {WEBHOOK_EVENT_RETENTION_DAYS}{' '}
            days.
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
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={replay.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={replay.isPending}>
              Replay failed events
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
