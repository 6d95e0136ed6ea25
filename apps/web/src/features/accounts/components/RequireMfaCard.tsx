import { Switch, Text } from '@mantine/core';
import type { Membership } from '@veriform/contracts';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useUpdateRequireMfaMutation } from '../api';
import { CompanySettingCard } from './CompanySettingCard';

export const REQUIRE_MFA_LABEL = 'Require two-factor authentication';
export const REQUIRE_MFA_TEXT =
  'Every member signs in with a second factor: an authenticator app or a passkey. Members without one are led to set it up before they can do anything else in this company.';

/** Owners: the switch, each change after a confirmation. */
function RequireMfaSwitch({ accountId, required }: { accountId: number; required: boolean }) {
  const update = useUpdateRequireMfaMutation(accountId);
  const [asking, setAsking] = useState<boolean | null>(null);
  const turnOn = asking === true;
  return (
    <>
      <Switch
        label={REQUIRE_MFA_LABEL}
        checked={required}
        disabled={update.isPending}
        onChange={(event) => setAsking(event.currentTarget.checked)}
      />
      <ConfirmModal
        opened={asking !== null}
        title={turnOn ? 'Require two-factor authentication?' : 'Stop requiring two-factor authentication?'}
        confirmLabel={turnOn ? 'Require it' : 'Stop requiring it'}
        loading={update.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={() =>
          update.mutate(turnOn, {
            onSuccess: () =>
              notify.success(
                turnOn ? 'Two-factor authentication required' : 'Two-factor authentication optional',
                turnOn
                  ? 'Members without a second factor set one up at their next step in this company.'
                  : 'Members may sign in with their password alone.',
              ),
            onError: (error) => notify.error('Not saved', errorDisplayText(error)),
            onSettled: () => setAsking(null),
          })
        }
      >
        {turnOn
          ? 'Members without a second factor will be asked to set one up before they can do anything else in this company. The team list shows who has one.'
          : 'Members will be able to use this company with a password alone.'}
      </ConfirmModal>
    </>
  );
}

/** Company Info's requirement of a second factor (issue #38 item 3): owners set it, every member reads it. */
export function RequireMfaCard({ membership }: { membership: Membership }) {
  const accountId = membership.account.id;
  return (
    <CompanySettingCard
      membership={membership}
      title="Two-factor authentication"
      description={REQUIRE_MFA_TEXT}
      loading="Loading the two-factor requirement"
      edit={(info) => <RequireMfaSwitch accountId={accountId} required={info.requireMfa} />}
      readOnly={(info) => (
        <Text size="sm">
          {info.requireMfa
            ? 'Every member must sign in with a second factor.'
            : 'A second factor is up to each member.'}
        </Text>
      )}
      ownersOnly="Only owners can change it."
    />
  );
}
