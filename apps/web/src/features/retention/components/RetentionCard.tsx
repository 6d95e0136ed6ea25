import { Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  can,
  type Membership,
  RETENTION_YEARS,
  type RetentionPolicy,
  retentionTexts,
} from '@veriform/contracts';
import { useRef, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { SavedSelect } from '../../../components/form/SavedSelect';
import { SettingCard } from '../../../components/layout/SettingCard';
import { formatCount, formatDateTime } from '../../../lib/format';
import { useServices } from '../../../lib/services';
import { retentionQueryOptions, useUpdateRetentionMutation } from '../api';

const LABEL = 'Keep evidence for';

export const RETENTION_TEXT =
  'Every day, verifications older than this are removed with their attempts, page views, code entries, delivery events and carrier lookups. What stays: each certificate’s seal and place in the chain (it still checks as authentic), the counts of your reports, and a record of each purge in the audit log. Evidence under a legal hold is kept.';

export const yearsText = (years: number) => (years === 1 ? '1 year' : `${years} years`);

const options = Array.from({ length: RETENTION_YEARS.max - RETENTION_YEARS.min + 1 }, (_, i) => {
  const years = RETENTION_YEARS.min + i;
  return {
    value: String(years),
    label: years === RETENTION_YEARS.default ? `${yearsText(years)} (default)` : yearsText(years),
  };
});

/** The TCPA warning of a policy below four years, as the dialog shows it (the server's 400 says the same). */
export const belowFourWarning = (years: number) =>
  retentionTexts.belowFour(years).replace(/ Confirm it .*$/, '');

/** What the next purge removes and what the last one did, in words. */
function PurgeSummary({ policy }: { policy: RetentionPolicy }) {
  const last = policy.lastPurge;
  return (
    <Stack gap={4}>
      <Text size="sm">
        The next purge, <time dateTime={policy.nextPurgeAt}>{formatDateTime(policy.nextPurgeAt)}</time>,
        removes evidence created before <time dateTime={policy.cutoff}>{formatDateTime(policy.cutoff)}</time>.
      </Text>
      {policy.belowFourConfirmedAt && (
        <Text size="sm" c="dimmed">
          Below the TCPA’s four-year limitation period: confirmed{' '}
          <time dateTime={policy.belowFourConfirmedAt}>{formatDateTime(policy.belowFourConfirmedAt)}</time>.
        </Text>
      )}
      <Text size="sm" c="dimmed" data-testid="last-purge">
        {last ? (
          <>
            Last purge <time dateTime={last.ranAt}>{formatDateTime(last.ranAt)}</time>:{' '}
            {formatCount(last.removed.verifications ?? 0)}{' '}
            {(last.removed.verifications ?? 0) === 1 ? 'verification' : 'verifications'} removed,{' '}
            {formatCount(last.held)} kept under legal holds.
          </>
        ) : (
          'Nothing has been purged yet.'
        )}
      </Text>
    </Stack>
  );
}

/** Owners: the years, saved as soon as chosen; below four years only once the TCPA warning is confirmed. */
function RetentionSelect({ accountId, policy }: { accountId: number; policy: RetentionPolicy }) {
  const update = useUpdateRetentionMutation(accountId);
  const [asking, setAsking] = useState<number | null>(null);
  const answer = useRef<(confirmed: boolean) => void>(() => undefined);

  const confirm = (years: number): Promise<boolean> => {
    if (years >= RETENTION_YEARS.tcpa) return Promise.resolve(true);
    setAsking(years);
    return new Promise((resolve) => {
      answer.current = (confirmed) => {
        setAsking(null);
        resolve(confirmed);
      };
    });
  };

  return (
    <Stack gap="sm">
      <SavedSelect
        label={LABEL}
        data={options}
        saved={policy.years}
        field="years"
        pending={update.isPending}
        confirm={confirm}
        save={async (years) => {
          const saved = await update.mutateAsync({
            years,
            ...(years < RETENTION_YEARS.tcpa ? { confirmBelowFour: true } : {}),
          });
          return { title: 'Retention saved', message: `Evidence is kept for ${yearsText(saved.years)}.` };
        }}
        width={180}
        maxDropdownHeight={320}
      />
      <PurgeSummary policy={policy} />
      <ConfirmModal
        opened={asking !== null}
        title="Keep evidence for less than four years?"
        confirmLabel={`Keep ${yearsText(asking ?? RETENTION_YEARS.tcpa)}`}
        onConfirm={() => answer.current(true)}
        onCancel={() => answer.current(false)}
      >
        {belowFourWarning(asking ?? RETENTION_YEARS.tcpa)}
      </ConfirmModal>
    </Stack>
  );
}

/**
 * Company Info's evidence retention (issue #37 item 1): how many years the account's evidence is kept before the daily
 * purge removes it, the next purge and the last. Every member reads it; owners change it (the server refuses anyone
 * else).
 */
export function RetentionCard({ membership }: { membership: Membership }) {
  const accountId = membership.account.id;
  const owner = can(membership, 'manageCompany');
  const { api } = useServices();
  const read = useQuery(retentionQueryOptions(api, accountId));
  return (
    <SettingCard
      title="Evidence retention"
      description={RETENTION_TEXT}
      read={read}
      loading="Loading evidence retention"
      errorLead="The retention policy could not be loaded: "
      skeleton={{ width: 240, height: 80 }}
      owner={owner}
      edit={(policy) => <RetentionSelect accountId={accountId} policy={policy} />}
      readOnly={(policy) => (
        <Stack gap="sm">
          <Text size="sm">
            Evidence is kept for <strong>{yearsText(policy.years)}</strong>.
          </Text>
          <PurgeSummary policy={policy} />
        </Stack>
      )}
      ownersOnly="Only owners can change it."
    />
  );
}
