import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconClockPause, IconLockOpen } from '@tabler/icons-react';
import { type CertificateUnlock, certificateUnlockRequestSchema } from '@veriform/contracts';
import { useRef } from 'react';
import { z } from 'zod';
import { CellPhoneInput } from '../../../components/form/CellPhoneInput';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { SectionCard } from '../../../components/layout/SectionCard';
import { RateLimitedError } from '../../../lib/api-client';
import { formatPhoneForReading } from '../../../lib/format';
import { useUnlockCertificateMutation } from '../api';

const labels = { cellPhone: 'Phone number' } as const;
const fields = Object.keys(labels);
const unlockSchema = certificateUnlockRequestSchema.extend({
  cellPhone: z.string().trim().min(1, 'Required').max(40),
});

export const RATE_LIMITED_FALLBACK =
  'Too many tries from your connection. Wait a few minutes, then try again.';

/**
 * "Know the phone number?": whoever already knows the consumer's number can see it unmasked (and the salt that
 * reproduces the certificate's hash of it). A wrong number is told beside the field; tries are limited per IP, and a
 * refusal says when to try again.
 */
export function CertificateUnlockForm({
  certId,
  unlocked,
  onUnlocked,
}: {
  certId: string;
  unlocked: CertificateUnlock | null;
  onUnlocked: (unlock: CertificateUnlock) => void;
}) {
  const unlock = useUnlockCertificateMutation(certId);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm({
    initialValues: { cellPhone: '' },
    validate: schemaResolver(unlockSchema, { sync: true }),
  });

  const handleSubmit = form.onSubmit(
    async (values) => {
      if (unlock.isPending) return;
      try {
        onUnlocked(await unlock.mutateAsync(unlockSchema.parse(values).cellPhone));
      } catch (error) {
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  if (unlocked) {
    return (
      <SectionCard title="Phone number unlocked">
        <Alert role="status" color="green" icon={<IconLockOpen aria-hidden="true" />}>
          <Stack gap={4}>
            <Text size="sm">
              The number is{' '}
              <Text span fw={700} inherit>
                {formatPhoneForReading(unlocked.cellPhone)}
              </Text>
              {unlocked.email ? ` and the e-mail address ${unlocked.email}` : ''}.
            </Text>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              Salt of the certificate’s hashes:{' '}
              <span style={{ fontFamily: 'monospace' }}>{unlocked.salt}</span>
            </Text>
          </Stack>
        </Alert>
      </SectionCard>
    );
  }

  const limited = unlock.error instanceof RateLimitedError ? unlock.error : null;
  return (
    <SectionCard title="Know the phone number?">
      <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Unlock the phone number">
        <Stack gap="sm">
          <Text size="sm">Enter it to see it in full. A wrong number shows nothing.</Text>
          {limited ? (
            <Alert role="alert" color="orange" c="dark.6" icon={<IconClockPause aria-hidden="true" />}>
              {limited.detail ?? RATE_LIMITED_FALLBACK}
            </Alert>
          ) : (
            <FormErrorAlert error={unlock.error} labels={labels} inlineFields={fields} />
          )}
          <CellPhoneInput label={labels.cellPhone} maw={320} {...form.getInputProps('cellPhone')} />
          <Group>
            <Button
              type="submit"
              loading={unlock.isPending}
              leftSection={<IconLockOpen size={16} aria-hidden="true" />}
            >
              Unlock
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
