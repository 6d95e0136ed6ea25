import { Box, Button, Group, NativeSelect, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPhoneCheck } from '@tabler/icons-react';
import { type ContactabilityCheck, contactChannels, contactPurposes } from '@veriform/contracts';
import { useState } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { useFormSubmit } from '../../../components/form/use-form-submit';
import { SectionCard } from '../../../components/layout/SectionCard';
import { formatPhoneForReading } from '../../../lib/format';
import { useCheckContactabilityMutation } from '../api';
import { channelLabels, purposeLabels, verdictLabel } from '../labels';
import { VerdictPanel } from './VerdictPanel';

const labels = {
  phone: 'Phone number',
  channel: 'How',
  purpose: 'Purpose',
  at: 'When',
} as const;
const inlineFields = Object.keys(labels);

type Values = { phone: string; channel: string; purpose: string; at: string };

const channelOptions = contactChannels.map((value) => ({ value, label: channelLabels[value] }));
const purposeOptions = contactPurposes.map((value) => ({ value, label: purposeLabels[value] }));

const isChannel = (value: string): value is (typeof contactChannels)[number] =>
  (contactChannels as readonly string[]).includes(value);
const isPurpose = (value: string): value is (typeof contactPurposes)[number] =>
  (contactPurposes as readonly string[]).includes(value);

/** A `datetime-local` value (the viewer's local time) as an ISO instant; null when empty or not a time. */
function localToIso(local: string): string | null {
  const time = local ? new Date(local).getTime() : Number.NaN;
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * "May I contact this number now?" (issue #35): a member asks about a number, how and why it is to be contacted and
 * optionally when; the verdict shows under the form (and is announced), and is kept in the list below like every
 * verdict API v1 gives.
 */
export function CheckNumberForm({ accountId }: { accountId: number }) {
  const check = useCheckContactabilityMutation(accountId);
  const form = useForm<Values>({
    initialValues: { phone: '', channel: 'sms', purpose: 'marketing', at: '' },
    validate: {
      phone: (value) => (value.trim() ? null : 'Enter the number to check.'),
      at: (value) =>
        value === '' || localToIso(value) ? null : 'Enter a date and time, or leave it empty for now.',
    },
  });
  const { formRef, onSubmit } = useFormSubmit(form, { isPending: check.isPending, inlineFields });
  // The last verdict stays (dimmed) while the next is asked for; a refused question takes it away.
  const [verdict, setVerdict] = useState<ContactabilityCheck | null>(null);

  const submit = onSubmit(async (values) => {
    const at = localToIso(values.at);
    try {
      setVerdict(
        await check.mutateAsync({
          phone: values.phone.trim(),
          channel: isChannel(values.channel) ? values.channel : 'sms',
          purpose: isPurpose(values.purpose) ? values.purpose : 'marketing',
          ...(at ? { at } : {}),
        }),
      );
    } catch (error) {
      setVerdict(null);
      throw error;
    }
  });

  return (
    <SectionCard title="Check a number">
      <Text size="sm" c="dimmed" maw={720}>
        Before a call or a text: is there consent that still stands, and is it within the calling hours at the
        number’s local time? Every answer is kept below as proof that you checked.
      </Text>
      <form ref={formRef} onSubmit={submit} noValidate aria-label="Check a number">
        <Stack gap="sm">
          <FormErrorAlert error={check.error} labels={labels} inlineFields={inlineFields} />
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label={labels.phone}
              description="US numbers need no country code"
              type="tel"
              inputMode="tel"
              autoComplete="off"
              required
              maxLength={32}
              style={{ flex: '1 1 220px' }}
              {...form.getInputProps('phone')}
            />
            <NativeSelect
              label={labels.channel}
              data={channelOptions}
              style={{ flex: '1 1 150px' }}
              {...form.getInputProps('channel')}
            />
            <NativeSelect
              label={labels.purpose}
              description="Quiet hours apply to marketing"
              data={purposeOptions}
              style={{ flex: '1 1 150px' }}
              {...form.getInputProps('purpose')}
            />
            <TextInput
              type="datetime-local"
              label={labels.at}
              description={`Empty for now; your time (${viewerZone()})`}
              style={{ flex: '1 1 220px' }}
              {...form.getInputProps('at')}
            />
          </Group>
          <Group>
            <Button type="submit" loading={check.isPending} leftSection={<IconPhoneCheck size={16} />}>
              Check
            </Button>
          </Group>
        </Stack>
      </form>
      {/* Announced when it comes: the verdict in two words and the number; the panel holds the rest. */}
      <VisuallyHidden role="status" aria-live="polite" aria-atomic="true">
        {verdict ? `${verdictLabel(verdict.allowed)}: ${formatPhoneForReading(verdict.phone)}` : ''}
      </VisuallyHidden>
      {verdict && (
        <Box
          aria-busy={check.isPending || undefined}
          style={{ opacity: check.isPending ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
          <VerdictPanel verdict={verdict} />
        </Box>
      )}
    </SectionCard>
  );
}
