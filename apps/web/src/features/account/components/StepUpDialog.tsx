import { Alert, Button, Divider, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconFingerprint } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type SecondFactorProof, secondFactorTexts } from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
import { errorDisplayText } from '../../../lib/error-text';
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
  const prove = useMutation({ mutationFn: (proof: SecondFactorProof) => stepUp(api, proof) });
  const passkey = useMutation({
    mutationFn: async () => stepUp(api, { method: 'passkey', response: await passkeyAssertion(api) }),
    onSuccess: () => onDone(true),
  });
  const form = useForm({
    initialValues: { code: '' },
    validate: { code: (value) => codeProof(value).error },
  });

  const hasCode = factors.data ? factors.data.totp.enabled || factors.data.recoveryCodesLeft > 0 : true;
  const hasPasskey = browserSupportsPasskeys() && (factors.data ? factors.data.passkeys > 0 : true);

  return (
    <FormModal
      onClose={() => !passkey.isPending && onDone(false)}
      title="Confirm it is you"
      formLabel="Confirm it is you"
      form={form}
      mutation={prove}
      labels={labels}
      submit={async (values) => {
        const { proof } = codeProof(values.code);
        if (proof) await prove.mutateAsync(proof);
      }}
      onDone={() => onDone(true)}
      submitLabel="Confirm"
      intro={
        <Stack gap="sm">
          <Text size="sm">{secondFactorTexts.stepUpRequired}</Text>
          {factors.isPending && <Skeleton height={36} aria-label="Loading your second factors" />}
          {hasPasskey && !factors.isPending && (
            <>
              <Button
                variant="default"
                leftSection={<IconFingerprint size={18} aria-hidden="true" />}
                loading={passkey.isPending}
                onClick={() => passkey.mutate()}
              >
                Use a passkey
              </Button>
              {passkey.error && (
                <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
                  {errorDisplayText(passkey.error)}
                </Alert>
              )}
              {hasCode && <Divider label="or enter a code" labelPosition="center" />}
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
