import { Checkbox, Input, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  type ApiKeyMode,
  type ApiKeyScope,
  apiKeyScopeDescriptions,
  apiKeyScopeSchema,
  apiKeyScopes,
  type CreatedApiKey,
  createApiKeyRequestSchema,
} from '@veriform/contracts';
import { useId } from 'react';
import { z } from 'zod';
import { FormModal } from '../../../components/form/FormModal';
import { useCreateApiKeyMutation } from '../api';

const labels = { name: 'Name', mode: 'Mode', scopes: 'Scopes' } as const;

export const modeTexts: Record<ApiKeyMode, string> = {
  live: 'Live keys verify real numbers: codes are sent and count against the same limits as your public forms.',
  test: 'Test keys reach only this account’s test numbers (Company Info): nothing is sent, and each number verifies with its fixed code.',
};

export const SCOPES_REQUIRED = 'Choose at least one scope.';

/** The contract's body without the account (the page adds it), with words for a key that may do nothing. */
const createSchema = createApiKeyRequestSchema
  .omit({ account: true })
  .extend({ scopes: z.array(apiKeyScopeSchema).min(1, SCOPES_REQUIRED) });
type CreateValues = { name: string; mode: ApiKeyMode; scopes: ApiKeyScope[] };

// A test key is the safe first step: a mistaken one fails loudly, a mistaken live one sends real messages.
const emptyValues: CreateValues = { name: '', mode: 'test', scopes: [] };

const modeOptions = [
  { value: 'live', label: 'Live' },
  { value: 'test', label: 'Test' },
];
const isMode = (value: string): value is ApiKeyMode => value === 'live' || value === 'test';

/**
 * Owners name a key, choose live or test, and tick what it may do. The created key (with its secret) goes to
 * `onCreated` and nowhere else.
 */
export function CreateApiKeyModal({
  accountId,
  opened,
  onClose,
  onCreated,
}: {
  accountId: number;
  opened: boolean;
  onClose: () => void;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const create = useCreateApiKeyMutation(accountId);
  const modeLabelId = useId();
  const modeTextId = useId();
  const modeErrorId = useId();
  const form = useForm<CreateValues>({
    initialValues: emptyValues,
    validate: schemaResolver(createSchema, { sync: true }),
  });

  const modeError = form.errors.mode;

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Create API key"
      size="lg"
      form={form}
      mutation={create}
      labels={labels}
      submit={(values) => create.mutateAsync(createSchema.parse(values))}
      // The modal resets the mutation first: it lets go of the answer (and its secret).
      onDone={onCreated}
      submitLabel="Create key"
    >
      <TextInput
        label={labels.name}
        description="Where it is used, to tell keys apart: “CRM sync”"
        autoComplete="off"
        required
        maxLength={100}
        data-autofocus
        {...form.getInputProps('name')}
      />
      <Stack gap={4}>
        <Text id={modeLabelId} size="sm" fw={500}>
          {labels.mode}
        </Text>
        <SegmentedControl
          aria-labelledby={modeLabelId}
          aria-describedby={modeError ? `${modeTextId} ${modeErrorId}` : modeTextId}
          data={modeOptions}
          value={form.values.mode}
          onChange={(value) => isMode(value) && form.setFieldValue('mode', value)}
          style={{ alignSelf: 'flex-start' }}
        />
        <Text id={modeTextId} size="xs" c="dimmed">
          {modeTexts[form.values.mode]}
        </Text>
        {modeError && <Input.Error id={modeErrorId}>{modeError}</Input.Error>}
      </Stack>
      <Checkbox.Group
        label={labels.scopes}
        description="What the key may do: one at least"
        {...form.getInputProps('scopes')}
      >
        <Stack gap="xs" mt="xs">
          {apiKeyScopes.map((scope) => (
            <Checkbox
              key={scope}
              value={scope}
              label={
                <Text span size="sm" ff="monospace">
                  {scope}
                </Text>
              }
              description={apiKeyScopeDescriptions[scope]}
            />
          ))}
        </Stack>
      </Checkbox.Group>
    </FormModal>
  );
}
