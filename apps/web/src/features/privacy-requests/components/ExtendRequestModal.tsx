import { Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  extendPrivacyRequestRequestSchema,
  MAX_PRIVACY_EXTENSION_REASON_LENGTH,
  type PrivacyRequest,
  privacyLawDeadlines,
} from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
import { useExtendPrivacyRequestMutation } from '../api';
import { formatDay } from '../labels';

const labels = { reason: 'Reason' } as const;

/** The due date moved by the law's extension days. */
function extendedDue(request: PrivacyRequest): string {
  const due = new Date(request.dueAt);
  due.setUTCDate(due.getUTCDate() + privacyLawDeadlines[request.law].extensionDays);
  return formatDay(due.toISOString());
}

/**
 * The one extension of a request's due date (issue #37 item 3: CCPA once by 45 days, GDPR once by 60), with the reason
 * the requester is told. A second is not offered (the server answers 400 to one).
 */
export function ExtendRequestModal({
  accountId,
  request,
  opened,
  onClose,
  onExtended,
}: {
  accountId: number;
  request: PrivacyRequest;
  opened: boolean;
  onClose: () => void;
  onExtended: (request: PrivacyRequest) => void;
}) {
  const extend = useExtendPrivacyRequestMutation(accountId, request.id);
  const form = useForm({
    initialValues: { reason: '' },
    validate: schemaResolver(extendPrivacyRequestRequestSchema, { sync: true }),
  });
  const { extensionDays } = privacyLawDeadlines[request.law];
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Extend the due date"
      form={form}
      mutation={extend}
      labels={labels}
      submit={(values) => extend.mutateAsync({ reason: values.reason })}
      onDone={onExtended}
      submitLabel="Extend"
      intro={`The due date moves once by ${extensionDays} days, from ${formatDay(request.dueAt)} to ${extendedDue(request)}. Tell the requester within the first period, and why: the reason is kept with the request.`}
    >
      <Textarea
        label={labels.reason}
        description="Why more time is needed: the number of requests, their complexity"
        required
        minRows={3}
        maxLength={MAX_PRIVACY_EXTENSION_REASON_LENGTH}
        data-autofocus
        {...form.getInputProps('reason')}
      />
    </FormModal>
  );
}
