import { Group, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { AUDIT_RETENTION_YEARS } from '@veriform/contracts';
import { useEffect, useState } from 'react';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { ApiValidationError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { companyInfoQueryOptions } from '../../accounts/api';
import { useUpdateAuditRetentionMutation } from '../api';

const LABEL = 'Keep events for';
export const RETENTION_TEXT =
  'Older events are removed daily; the log records each removal, and exports still verify.';

const yearsText = (years: number) => (years === 1 ? '1 year' : `${years} years`);

const options = Array.from({ length: AUDIT_RETENTION_YEARS.max - AUDIT_RETENTION_YEARS.min + 1 }, (_, i) => {
  const years = AUDIT_RETENTION_YEARS.min + i;
  return { value: String(years), label: yearsText(years) };
});

/** The select, saved as soon as it changes (one setting: a Save button would only be one more step). */
function RetentionSelect({ accountId, saved }: { accountId: number; saved: number }) {
  const update = useUpdateAuditRetentionMutation(accountId);
  const [value, setValue] = useState(saved);
  const [error, setError] = useState<string | null>(null);

  // A fresher read (another owner changed it) shows here.
  useEffect(() => setValue(saved), [saved]);

  const choose = async (chosen: string | null) => {
    const years = Number(chosen);
    if (!chosen || years === value || update.isPending) return;
    setValue(years);
    setError(null);
    try {
      const info = await update.mutateAsync(years);
      notify.success('Retention saved', `Audit events are kept for ${yearsText(info.auditRetentionYears)}.`);
    } catch (failure) {
      setValue(saved);
      const fieldError =
        failure instanceof ApiValidationError ? failure.fieldErrors.auditRetentionYears : undefined;
      setError(fieldError ?? errorDisplayText(failure, { auditRetentionYears: LABEL }));
    }
  };

  return (
    <Stack gap={4}>
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
          // The input keeps its width; a refusal is written below it at full length.
          styles={{ wrapper: { width: 120 } }}
        />
      </Group>
      <Text size="xs" c="dimmed">
        {RETENTION_TEXT}
      </Text>
    </Stack>
  );
}

/** Settings → Audit log's retention (issue #16 item 6): owners choose 1–7 years (the page is theirs only). */
export function AuditRetention({ accountId }: { accountId: number }) {
  const { api } = useServices();
  const { data: info, error, isPending } = useQuery(companyInfoQueryOptions(api, accountId));
  if (isPending) return <Skeleton height={36} width={240} radius="sm" />;
  if (!info) {
    return (
      <Text size="sm" c="dimmed">
        The retention could not be loaded: {errorDisplayText(error)}
      </Text>
    );
  }
  return <RetentionSelect accountId={accountId} saved={info.auditRetentionYears} />;
}
