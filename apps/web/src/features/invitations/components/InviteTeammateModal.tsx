import { Checkbox, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { createInvitationRequestSchema } from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { notify } from '../../../lib/notify';
import { roleOptions } from '../../../lib/people';
import { useCreateInvitationMutation } from '../api';

const labels = {
  email: 'Email',
  role: 'Role',
  canSearchData: 'Can search data',
  canViewReports: 'Can view reports',
} as const;

const inviteSchema = createInvitationRequestSchema.omit({ accountId: true });

type InviteValues = {
  email: string;
  role: 'member' | 'owner';
  canSearchData: boolean;
  canViewReports: boolean;
};

const emptyValues: InviteValues = { email: '', role: 'member', canSearchData: false, canViewReports: false };

/** Owners invite someone by e-mail with a role (and, for a member, the two permissions). */
export function InviteTeammateModal({
  accountId,
  opened,
  onClose,
}: {
  accountId: number;
  opened: boolean;
  onClose: () => void;
}) {
  const invite = useCreateInvitationMutation(accountId);
  const form = useForm<InviteValues>({
    initialValues: emptyValues,
    validate: schemaResolver(inviteSchema, { sync: true }),
  });

  const send = (values: InviteValues) => {
    const parsed = inviteSchema.parse(values);
    // Owners have every permission; the two boxes only matter for members.
    return invite.mutateAsync(
      parsed.role === 'owner' ? { ...parsed, canSearchData: true, canViewReports: true } : parsed,
    );
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Invite a teammate"
      form={form}
      mutation={invite}
      labels={labels}
      submit={send}
      onDone={(invitation) => {
        notify.success('Invitation sent', `Sent to ${invitation.email}.`);
        onClose();
      }}
      submitLabel="Send invitation"
    >
      <TextInput
        label={labels.email}
        type="email"
        inputMode="email"
        autoComplete="off"
        required
        data-autofocus
        {...form.getInputProps('email')}
      />
      <LabelledSelect label={labels.role} data={roleOptions} required {...form.getInputProps('role')} />
      {form.values.role !== 'owner' && (
        <Stack gap="xs">
          <Checkbox
            label={labels.canSearchData}
            description="Activity Log, verifications and CSV export"
            {...form.getInputProps('canSearchData', { type: 'checkbox' })}
          />
          <Checkbox
            label={labels.canViewReports}
            description="Dashboard and reports"
            {...form.getInputProps('canViewReports', { type: 'checkbox' })}
          />
        </Stack>
      )}
    </FormModal>
  );
}
