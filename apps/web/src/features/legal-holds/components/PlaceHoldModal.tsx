import { NativeSelect, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import {
  formListSearchSchema,
  type LegalHold,
  type LegalHoldScope,
  legalHoldScopes,
  MAX_LEGAL_HOLD_REASON_LENGTH,
  type PlaceLegalHoldRequest,
  placeLegalHoldRequestSchema,
} from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
import { useServices } from '../../../lib/services';
import { verifyFormListQueryOptions } from '../../verify-forms/api';
import { usePlaceLegalHoldMutation } from '../api';
import { legalHoldScopeLabels } from '../labels';

const labels = {
  scope: 'What to hold',
  formId: 'Form',
  phone: 'Phone number',
  email: 'E-mail address',
  verificationId: 'Verification id',
  reason: 'Reason',
} as const;

const scopeDescriptions: Record<LegalHoldScope, string> = {
  account: 'Every verification of the account, made before or after today',
  form: 'Every verification made with one form',
  identifier: 'Every verification of one number or one address',
  verification: 'One verification, by its id in the Activity Log',
};

type Values = {
  scope: LegalHoldScope;
  formId: string;
  identifier: 'phone' | 'email';
  phone: string;
  email: string;
  verificationId: string;
  reason: string;
};

/** The request the contract takes: only the field the scope needs. */
function requestOf(values: Values): PlaceLegalHoldRequest {
  const reason = values.reason;
  switch (values.scope) {
    case 'account':
      return { scope: 'account', reason };
    case 'form':
      return { scope: 'form', formId: values.formId ? Number(values.formId) : undefined, reason };
    case 'identifier':
      return values.identifier === 'phone'
        ? { scope: 'identifier', phone: values.phone.trim() || undefined, reason }
        : { scope: 'identifier', email: values.email.trim() || undefined, reason };
    case 'verification': {
      const id = values.verificationId.trim();
      return { scope: 'verification', verificationId: /^\d+$/.test(id) ? Number(id) : undefined, reason };
    }
  }
}

const formSearch = formListSearchSchema.parse({ pageSize: 100, o: 'name' });

/**
 * Places a legal hold (issue #37 item 2; owners): on the whole account, a form, a number or address, or one
 * verification, with the reason (a case, an inquiry). Held evidence is kept whatever the retention policy says and
 * cannot be redacted until the hold is released.
 */
export function PlaceHoldModal({
  accountId,
  opened,
  onClose,
  onPlaced,
}: {
  accountId: number;
  opened: boolean;
  onClose: () => void;
  onPlaced: (hold: LegalHold) => void;
}) {
  const { api } = useServices();
  const place = usePlaceLegalHoldMutation(accountId);
  const form = useForm<Values>({
    initialValues: {
      scope: 'identifier',
      formId: '',
      identifier: 'phone',
      phone: '',
      email: '',
      verificationId: '',
      reason: '',
    },
    validate: (values) => schemaResolver(placeLegalHoldRequestSchema, { sync: true })(requestOf(values)),
  });
  const forms = useQuery({ ...verifyFormListQueryOptions(api, accountId, formSearch), enabled: opened });
  const formOptions = [
    { value: '', label: forms.isPending ? 'Loading forms…' : 'Choose a form' },
    ...(forms.data?.results ?? []).map((f) => ({ value: String(f.id), label: f.name })),
  ];
  const { scope, identifier } = form.values;

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Place a legal hold"
      form={form}
      mutation={place}
      labels={labels}
      submit={(values) => place.mutateAsync(requestOf(values))}
      onDone={onPlaced}
      submitLabel="Place hold"
      intro="Held evidence is kept whatever the retention policy says, and cannot be redacted, until the hold is released."
    >
      <Stack gap="md">
        <Radio.Group label={labels.scope} {...form.getInputProps('scope')}>
          <Stack gap="xs" mt="xs">
            {legalHoldScopes.map((value) => (
              <Radio
                key={value}
                value={value}
                label={legalHoldScopeLabels[value]}
                description={scopeDescriptions[value]}
              />
            ))}
          </Stack>
        </Radio.Group>
        {scope === 'form' && (
          <NativeSelect label={labels.formId} data={formOptions} required {...form.getInputProps('formId')} />
        )}
        {scope === 'identifier' && (
          <>
            <Radio.Group label="Hold a" {...form.getInputProps('identifier')}>
              <Stack gap="xs" mt="xs">
                <Radio value="phone" label="Phone number" />
                <Radio value="email" label="E-mail address" />
              </Stack>
            </Radio.Group>
            {identifier === 'phone' ? (
              <TextInput
                label={labels.phone}
                description="With its country code if it is not a US number"
                required
                autoComplete="off"
                inputMode="tel"
                maxLength={32}
                {...form.getInputProps('phone')}
              />
            ) : (
              <TextInput
                label={labels.email}
                type="email"
                required
                autoComplete="off"
                maxLength={254}
                {...form.getInputProps('email')}
              />
            )}
          </>
        )}
        {scope === 'verification' && (
          <TextInput
            label={labels.verificationId}
            description="The number shown as its id in the Activity Log"
            required
            autoComplete="off"
            inputMode="numeric"
            maxLength={20}
            {...form.getInputProps('verificationId')}
          />
        )}
        <Textarea
          label={labels.reason}
          description="The case, inquiry or dispute the evidence is kept for"
          required
          minRows={2}
          maxLength={MAX_LEGAL_HOLD_REASON_LENGTH}
          data-autofocus
          {...form.getInputProps('reason')}
        />
      </Stack>
    </FormModal>
  );
}
