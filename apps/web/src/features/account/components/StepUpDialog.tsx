import { Button, Divider, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconFingerprint } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type SecondFactorProof, secondFactorTexts } from '@veriform/contracts';
import { useRef } from 'react';
import { FormModal } from '../../../components/form/FormModal';
import { codeProof } from '../../../lib/second-factor-code';
import { useServices } from '../../../lib/services';
import { browserSupportsPasskeys, passkeyAssertion } from '../../../lib/webauthn';
import { secondFactorsQueryOptions, stepUp } from '../security-api';

const labels = { code: 'Authenticator or recovery code' } as const;

/**
 * The step-up (issue #38): a sensitive call answered 403 `step_up_required`; the person proves their second factor
 * again (a code from the app, a recovery code, or a passkey) and the call is made once more. Cancel leaves everything
 * as it was (the call fails with StepUpCanceledError's words).
 */
export function StepUpDialog({ onDone }: { onDone: (proved: boolean) => void }) {
  const { api } = useServices();
  const factors = useQuery(secondFactorsQueryOptions(api));
  // One mutation for either way, so that its error shows in the one error block.
  const prove = useMutation({
    mutationFn: async (how: SecondFactorProof | 'passkey') =>
      stepUp(api, how === 'passkey' ? { method: 'passkey', response: await passkeyAssertion(api) } : how),
  });
  const hasCode = factors.data ? factors.data.totp.enabled || factors.data.recoveryCodesLeft > 0 : true;
  // Someone with passkeys alone confirms with the dialog's own button.
  const passkeyOnly = !hasCode;
  const passkeyOnlyRef = useRef(passkeyOnly);
  passkeyOnlyRef.current = passkeyOnly;
  const form = useForm({
    initialValues: { code: '' },
    validate: { code: (value) => (passkeyOnlyRef.current ? null : codeProof(value).error) },
  });
  const passkeyButton = hasCode && browserSupportsPasskeys() && (factors.data?.passkeys ?? 0) > 0;

  return (
    <FormModal
      onClose={() => onDone(false)}
      title="Confirm it is you"
      formLabel="Confirm it is you"
      form={form}
      mutation={prove}
      labels={labels}
      submit={async (values) => {
        if (passkeyOnly) return prove.mutateAsync('passkey');
        const { proof } = codeProof(values.code);
        if (proof) await prove.mutateAsync(proof);
      }}
      onDone={() => onDone(true)}
      submitLabel={passkeyOnly ? 'Use a passkey' : 'Confirm'}
      intro={
        <Stack gap="sm">
          <Text size="sm">{secondFactorTexts.stepUpRequired}</Text>
          {factors.isPending && <Skeleton height={36} aria-label="Loading your second factors" />}
          {passkeyButton && (
            <>
              <Button
                variant="default"
                leftSection={<IconFingerprint size={18} aria-hidden="true" />}
                disabled={prove.isPending}
                onClick={() => prove.mutate('passkey', { onSuccess: () => onDone(true) })}
              >
                Use a passkey
              </Button>
              <Divider label="or enter a code" labelPosition="center" />
            </>
          )}
        </Stack>
      }
    >
      {hasCode && (
        <TextInput
          label={labels.code}
          description="The 6-digit code from your authenticator app, or one of your recovery codes."
          autoComplete="one-time-code"
          spellCheck={false}
          data-autofocus
          {...form.getInputProps('code')}
        />
      )}
    </FormModal>
  );
}
