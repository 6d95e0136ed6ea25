import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconGavel, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  LEGAL_HOLD_PAGE_SIZE_MAX,
  type LegalHold,
  type LegalHoldSearch,
  legalHoldStatuses,
  type Membership,
} from '@veriform/contracts';
import { useState } from 'react';
import { searchPager } from '../../../components/data-list/ListStates';
import { StatusFilteredList } from '../../../components/data-list/StatusFilteredList';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { PermissionDeniedError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { usePageTitle } from '../../../lib/page-title';
import { useServices } from '../../../lib/services';
import { canManageLegalHolds, legalHoldKeys, legalHoldListQueryOptions } from '../api';
import { legalHoldStatusLabels, legalHoldTarget } from '../labels';
import { LegalHoldList, LegalHoldListSkeleton } from './LegalHoldList';
import { PlaceHoldModal } from './PlaceHoldModal';
import { ReleaseHoldModal } from './ReleaseHoldModal';

export const NO_HOLDS = 'No legal holds';
export const NO_MATCH = 'No holds with this status';

const pageSizes = [10, 25, 50, LEGAL_HOLD_PAGE_SIZE_MAX] as const;

export interface LegalHoldsProps {
  membership: Membership;
  search: LegalHoldSearch;
  /** Merges a patch into the URL's search params; `replace` for filters, a new history entry for pages. */
  onSearch: (patch: Partial<LegalHoldSearch>, options?: { replace?: boolean }) => void;
}

/**
 * Settings → Legal holds (issue #37 item 2): every hold of the account, active first, with what it holds, why, what it
 * reaches and who placed it. Owners place and release holds; members who may search the account's data read them.
 */
export function LegalHolds({ membership, search, onSearch }: LegalHoldsProps) {
  const accountId = membership.account.id;
  const { api } = useServices();
  const manages = canManageLegalHolds(membership);
  const [placing, setPlacing] = useState(false);
  const [releasing, setReleasing] = useState<LegalHold | null>(null);
  const query = useQuery({
    ...legalHoldListQueryOptions(api, accountId, search),
    // While another page or filter loads, keep this account's rows on screen (never another account's).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === legalHoldKeys.all(accountId)[1] ? previous : undefined,
  });
  const forbidden = query.error instanceof PermissionDeniedError;
  usePageTitle(forbidden ? 'Access denied' : 'Legal holds');
  if (forbidden) return <ForbiddenScreen />;

  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div>
          <Title order={2} size="h4">
            Legal holds
          </Title>
          <Text size="sm" c="dimmed" maw={640}>
            Evidence {membership.account.displayName} must keep for a case, an inquiry or a dispute. Held
            verifications are never removed by the retention policy nor redacted, and an erasure request
            restricts them instead, until the hold is released.
          </Text>
        </div>
        {manages && (
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setPlacing(true)}>
            Place a hold
          </Button>
        )}
      </Group>
      <StatusFilteredList
        query={query}
        rowsNoun="legal holds"
        status={{
          value: search.status,
          statuses: legalHoldStatuses,
          labels: legalHoldStatusLabels,
          onChange: (status) => onSearch({ status, pageNumber: 1 }, { replace: true }),
        }}
        never={{
          title: NO_HOLDS,
          text: manages
            ? 'When a case, an inquiry or a dispute needs evidence kept, place a hold on the account, a form, a number or address, or one verification.'
            : 'Holds the owners place on evidence that must be kept are listed here.',
        }}
        noMatchTitle={NO_MATCH}
        skeleton={<LegalHoldListSkeleton />}
        icon={<IconGavel />}
        pager={searchPager(search, pageSizes, onSearch)}
      >
        {(holds, busy) => (
          <LegalHoldList holds={holds} busy={busy} actions={manages ? { onRelease: setReleasing } : {}} />
        )}
      </StatusFilteredList>
      {manages && (
        <>
          <PlaceHoldModal
            accountId={accountId}
            opened={placing}
            onClose={() => setPlacing(false)}
            onPlaced={(hold) => {
              setPlacing(false);
              notify.success('Hold placed', legalHoldTarget(hold));
            }}
          />
          <ReleaseHoldModal
            accountId={accountId}
            hold={releasing}
            onClose={() => setReleasing(null)}
            onReleased={(hold) => {
              setReleasing(null);
              notify.success('Hold released', legalHoldTarget(hold));
            }}
          />
        </>
      )}
    </Stack>
  );
}
