import { Text } from '@mantine/core';
import { CONSENT_MAX_AGE_MONTHS, type Membership } from '@veriform/contracts';
import { SavedSelect } from '../../../components/form/SavedSelect';
import { useUpdateConsentMaxAgeMutation } from '../api';
import { CompanySettingCard } from './CompanySettingCard';

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
  return (
    <SavedSelect
      label={LABEL}
      data={options}
      saved={saved}
      field="consentMaxAgeMonths"
      pending={update.isPending}
      save={async (months) => {
        const info = await update.mutateAsync(months);
        return {
          title: 'Consent age saved',
          message: `A verification stands as consent for ${monthsText(info.consentMaxAgeMonths)}.`,
        };
      }}
      width={140}
      maxDropdownHeight={260}
    />
  );
}

/**
 * Company Info's consent age (issue #35): how long a verification stands as consent in the contactability verdict.
 * Every member reads it; owners change it (the server refuses anyone else).
 */
export function ConsentAgeCard({ membership }: { membership: Membership }) {
  const accountId = membership.account.id;
  return (
    <CompanySettingCard
      membership={membership}
      title="Consent age"
      description={CONSENT_AGE_TEXT}
      loading="Loading consent age"
      skeleton={{ width: 240 }}
      edit={(info) => <ConsentAgeSelect accountId={accountId} saved={info.consentMaxAgeMonths} />}
      readOnly={(info) => (
        <Text size="sm">
          A verification stands as consent for <strong>{monthsText(info.consentMaxAgeMonths)}</strong>.
        </Text>
      )}
      ownersOnly="Only owners can change it."
    />
  );
}
