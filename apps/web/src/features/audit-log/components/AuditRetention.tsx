import { Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { AUDIT_RETENTION_YEARS } from '@veriform/contracts';
import { SavedSelect } from '../../../components/form/SavedSelect';
import { SettingBody } from '../../../components/layout/SettingCard';
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
  return (
    <Stack gap={4}>
      <SavedSelect
        label={LABEL}
        data={options}
        saved={saved}
        field="auditRetentionYears"
        pending={update.isPending}
        save={async (years) => {
          const info = await update.mutateAsync(years);
          return {
            title: 'Retention saved',
            message: `Audit events are kept for ${yearsText(info.auditRetentionYears)}.`,
          };
        }}
        width={120}
      />
      <Text size="xs" c="dimmed">
        {RETENTION_TEXT}
      </Text>
    </Stack>
  );
}

/** Settings → Audit log's retention (issue #16 item 6): owners choose 1–7 years (the page is theirs only). */
export function AuditRetention({ accountId }: { accountId: number }) {
  const { api } = useServices();
  const read = useQuery(companyInfoQueryOptions(api, accountId));
  return (
    <SettingBody
      read={read}
      loading="Loading the retention"
      skeleton={{ width: 240 }}
      errorLead="The retention could not be loaded: "
      // The page is owners' only.
      owner
      edit={(info) => <RetentionSelect accountId={accountId} saved={info.auditRetentionYears} />}
    />
  );
}
