import { Button, Checkbox, Group, Modal, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { createInvitationRequestSchema } from '@veriform/contracts';
import { useRef } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { notify } from '../../../lib/notify';
import { roleOptions } from '../../../lib/people';
import { useCreateInvitationMutation } from '../api';

const labels = {
  email: 'Email',
  role: 'Role',
  canSearchData: 'Can search data',
  canViewReports: 'Can view reports',
} as const;
const fields = Object.keys(labels);

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
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<InviteValues>({
    initialValues: emptyValues,
    validate: schemaResolver(inviteSchema, { sync: true }),
  });

  const close = () => {
    if (invite.isPending) return;
    form.reset();
    invite.reset();
    onClose();
  };

  const handleSubmit = form.onSubmit(
    async (values) => {
      const parsed = inviteSchema.parse(values);
      // Owners have every permission; the two boxes only matter for members.
      const body =
        parsed.role === 'owner' ? { ...parsed, canSearchData: true, canViewReports: true } : parsed;
      try {
        const invitation = await invite.mutateAsync(body);
        notify.success('Invitation sent', `Sent to ${invitation.email}.`);
        form.reset();
        invite.reset();
        onClose();
      } catch (error) {
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Invite a teammate"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form ref={formRef} onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <FormErrorAlert error={invite.error} labels={labels} inlineFields={fields} />
          <TextInput
            label={labels.email}
            type="email"
            inputMode="email"
            autoComplete="off"
            required
            data-autofocus
            {...form.getInputProps('email')}
          />
          <LabelledSelect
            label={labels.role}
            data={roleOptions}
            allowDeselect={false}
            required
            {...form.getInputProps('role')}
          />
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
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={invite.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={invite.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
