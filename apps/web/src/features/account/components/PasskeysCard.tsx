import { Button, Group, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconFingerprint } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type Passkey, passkeyNameSchema } from '@veriform/contracts';
import { useState } from 'react';
import { z } from 'zod';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { CardFields, DataList } from '../../../components/data-list/DataList';
import { FormModal } from '../../../components/form/FormModal';
import { DetailField } from '../../../components/layout/DetailField';
import { SettingCard } from '../../../components/layout/SettingCard';
import { errorDisplayText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { browserSupportsPasskeys, PASSKEYS_UNSUPPORTED_TEXT } from '../../../lib/webauthn';
import { passkeysQueryOptions, useAddPasskeyMutation, useRemovePasskeyMutation } from '../security-api';

const labels = { name: 'Name' } as const;
const addSchema = z.object({ name: passkeyNameSchema });

const lastUsed = (passkey: Passkey) => (passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : 'Never');

/** Names the passkey, then the browser makes it on this device (or a security key, a phone). */
function AddPasskeyModal({ onClose }: { onClose: () => void }) {
  const add = useAddPasskeyMutation();
  const form = useForm({ initialValues: { name: '' }, validate: schemaResolver(addSchema, { sync: true }) });
  return (
    <FormModal
      onClose={onClose}
      title="Add a passkey"
      formLabel="Add a passkey"
      form={form}
      mutation={add}
      labels={labels}
      submit={(values) => add.mutateAsync(addSchema.parse(values).name)}
      onDone={(passkey) => {
        notify.success('Passkey added', `${passkey.name} can sign you in now.`);
        onClose();
      }}
      submitLabel="Add passkey"
      intro={
        <Text size="sm">
          Your browser will ask you to confirm with your fingerprint, face, screen lock or security key.
        </Text>
      }
    >
      <TextInput
        label={labels.name}
        description="So you can tell your passkeys apart: “Work laptop”, “YubiKey”."
        required
        maxLength={100}
        data-autofocus
        {...form.getInputProps('name')}
      />
    </FormModal>
  );
}

function PasskeyList({ passkeys }: { passkeys: Passkey[] }) {
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const remove = useRemovePasskeyMutation();
  const supported = browserSupportsPasskeys();
  const removeButton = (passkey: Passkey) => (
    <Button
      variant="subtle"
      color="red"
      size="compact-sm"
      aria-label={`Remove ${passkey.name}`}
      onClick={() => setRemoving(passkey)}
    >
      Remove
    </Button>
  );

  return (
    <Stack gap="md">
      {passkeys.length === 0 ? (
        <Text size="sm">No passkeys yet.</Text>
      ) : (
        <DataList
          label="Passkeys"
          rows={passkeys}
          rowKey={(passkey) => passkey.id}
          minWidth={480}
          columns={[
            { label: 'Name', cell: (passkey) => passkey.name, td: { style: { overflowWrap: 'anywhere' } } },
            { label: 'Created', cell: (passkey) => formatDateTime(passkey.createdAt) },
            { label: 'Last used', cell: lastUsed },
            { label: 'Actions', header: <VisuallyHidden>Actions</VisuallyHidden>, cell: removeButton },
          ]}
          card={(passkey) => (
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {passkey.name}
                </Text>
                {removeButton(passkey)}
              </Group>
              <CardFields>
                <DetailField label="Created">{formatDateTime(passkey.createdAt)}</DetailField>
                <DetailField label="Last used">{lastUsed(passkey)}</DetailField>
              </CardFields>
            </Stack>
          )}
        />
      )}
      <Group>
        <Button
          leftSection={<IconFingerprint size={18} aria-hidden="true" />}
          onClick={() => setAdding(true)}
          disabled={!supported}
        >
          Add a passkey
        </Button>
        {!supported && (
          <Text size="sm" c="dimmed">
            {PASSKEYS_UNSUPPORTED_TEXT}
          </Text>
        )}
      </Group>
      {adding && <AddPasskeyModal onClose={() => setAdding(false)} />}
      <ConfirmModal
        opened={removing !== null}
        title="Remove this passkey?"
        confirmLabel="Remove passkey"
        loading={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.id, {
            onSuccess: () => notify.success('Passkey removed', `${removing.name} no longer signs you in.`),
            onError: (error) => notify.error('Passkey not removed', errorDisplayText(error)),
            onSettled: () => setRemoving(null),
          });
        }}
      >
        {removing?.name} will no longer sign you in, and your other sessions are signed out.
      </ConfirmModal>
    </Stack>
  );
}

/** My Account › Security: the person's passkeys (issue #38): a sign-in without a password, or a second factor. */
export function PasskeysCard() {
  const { api } = useServices();
  const read = useQuery(passkeysQueryOptions(api));
  return (
    <SettingCard
      title="Passkeys"
      description="Sign in with your fingerprint, face or screen lock instead of a password, or as your second factor."
      read={read}
      loading="Loading your passkeys"
      errorLead="Your passkeys could not be loaded: "
      owner
      edit={(passkeys) => <PasskeyList passkeys={passkeys} />}
    />
  );
}
