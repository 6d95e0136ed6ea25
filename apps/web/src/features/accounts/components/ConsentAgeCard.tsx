import { Alert, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { CONSENT_MAX_AGE_MONTHS, can, type Membership } from '@veriform/contracts';
import { type ReactNode, useEffect, useState } from 'react';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { SectionCard } from '../../../components/layout/SectionCard';
import { ApiValidationError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { companyInfoQueryOptions, useUpdateConsentMaxAgeMutation } from '../api';

const LABEL = 'Consent stands for';

export const CONSENT_AGE_TEXT =
  'When your team or your systems ask whether a number may be contacted (Activity Log › Contactability, API v1), a verification older than this is refused as consent too old: verify the number again.';

export const monthsText = (months: number) => (months === 1 ? '1 month' : `${months} months`);

const options = Array.from(
  { length: CONSENT_MAX_AGE_MONTHS.max - CONSENT_MAX_AGE_MONTHS.min + 1 },
  (_, i) => {
    const months = CONSENT_MAX_AGE_MONTHS.min + i;
    return { value: String(months), label: monthsText(months) };
  },
);

/** Owners: the select, saved as soon as it changes (one setting, as the audit log's retention). */
function ConsentAgeSelect({ accountId, saved }: { accountId: number; saved: number }) {
  const update = useUpdateConsentMaxAgeMutation(accountId);
  const [value, setValue] = useState(saved);
  const [error, setError] = useState<string | null>(null);

  // A fresher read (another owner changed it) shows here.
  useEffect(() => setValue(saved), [saved]);

  const choose = async (chosen: string | null) => {
    const months = Number(chosen);
    if (!chosen || months === value || update.isPending) return;
    setValue(months);
    setError(null);
    try {
      const info = await update.mutateAsync(months);
      notify.success(
        'Consent age saved',
        `A verification stands as consent for ${monthsText(info.consentMaxAgeMonths)}.`,
      );
    } catch (failure) {
      setValue(saved);
      const fieldError =
        failure instanceof ApiValidationError ? failure.fieldErrors.consentMaxAgeMonths : undefined;
      setError(fieldError ?? errorDisplayText(failure, { consentMaxAgeMonths: LABEL }));
    }
  };

  return (
    <Group gap="xs" align="flex-start">
      {/* The words read as a sentence around the select; the select's own (hidden) label says the same. */}
      <Text size="sm" component="span" aria-hidden="true" mt={7}>
        {LABEL}
      </Text>
      <LabelledSelect
        label={LABEL}
        hideLabel
        data={options}
        value={String(value)}
        onChange={(chosen) => void choose(chosen)}
        error={error}
        maxDropdownHeight={260}
        // The input keeps its width; a refusal is written below it at full length.
        styles={{ wrapper: { width: 140 } }}
      />
    </Group>
  );
}

/**
 * Company Info's consent age (issue #35): how long a verification stands as consent in the contactability verdict.
 * Every member reads it; owners change it (the server refuses anyone else).
 */
export function ConsentAgeCard({ membership }: { membership: Membership }) {
  const accountId = membership.account.id;
  const owner = can(membership, 'manageCompany');
  const { api } = useServices();
  const { data: info, error, isPending } = useQuery(companyInfoQueryOptions(api, accountId));

  let body: ReactNode;
  if (isPending) {
    body = (
      <Skeleton
        height={36}
        width={240}
        radius="sm"
        aria-busy="true"
        role="progressbar"
        aria-label="Loading consent age"
      />
    );
  } else if (!info) {
    body = (
      <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
        {errorDisplayText(error)}
      </Alert>
    );
  } else if (owner) {
    body = <ConsentAgeSelect accountId={accountId} saved={info.consentMaxAgeMonths} />;
  } else {
    body = (
      <Stack gap={4}>
        <Text size="sm">
          A verification stands as consent for <strong>{monthsText(info.consentMaxAgeMonths)}</strong>.
        </Text>
        <Text size="sm" c="dimmed">
          Only owners can change it.
        </Text>
      </Stack>
    );
  }

  return (
    <SectionCard title="Consent age" maw={720}>
      <Text size="sm" c="dimmed">
        {CONSENT_AGE_TEXT}
      </Text>
      {body}
    </SectionCard>
  );
}
