import { Group, NativeSelect, Stack, Title } from '@mantine/core';
import { IconPhoneCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { type ContactabilitySearch, can } from '@veriform/contracts';
import { useCallback } from 'react';
import { ListStates } from '../../../components/data-list/ListStates';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { SearchBox } from '../../../components/form/SearchBox';
import { ActivityLogTabs } from '../../../components/layout/ActivityLogTabs';
import { PageHeader } from '../../../components/layout/PageHeader';
import { contactabilityKeys, contactabilityListQueryOptions } from '../../../features/contactability/api';
import { CheckList, CheckListSkeleton } from '../../../features/contactability/components/CheckList';
import { CheckNumberForm } from '../../../features/contactability/components/CheckNumberForm';
import {
  contactabilitySearchDefaults,
  validateContactabilitySearch,
} from '../../../features/contactability/search';
import { useServices } from '../../../lib/services';
import { useSession } from '../../../lib/session';
import { logPager } from './-log-page';

export const Route = createFileRoute('/_authed/activity-log/contactability')({
  validateSearch: validateContactabilitySearch,
  search: { middlewares: [stripSearchParams(contactabilitySearchDefaults)] },
  loaderDeps: ({ search }) => search,
  // As the log's other views: the page shows at once, a skeleton where the rows go; a failed read shows inside it.
  loader: async ({ context, deps }) => {
    const membership = context.session.get().currentMembership;
    if (!membership || !can(membership, 'checkContactability')) return;
    // Loaders stay in the entry chunk; the feature's api module (the verdict's schemas) comes with the page's own.
    const feature = await import('../../../features/contactability/api');
    void context.queryClient
      .ensureQueryData(feature.contactabilityListQueryOptions(context.api, membership.account.id, deps))
      .catch(() => undefined);
  },
  pendingComponent: Pending,
  component: ContactabilityPage,
});

function Pending() {
  return (
    <>
      <PageHeader title="Activity Log" />
      <ActivityLogTabs current="contactability" />
      <CheckListSkeleton />
    </>
  );
}

/** Owners and members with canSearchData (`checkContactability`): verdicts hold numbers, as the log does. */
function ContactabilityPage() {
  const { currentMembership } = useSession();
  if (!currentMembership) {
    return (
      <>
        <PageHeader title="Activity Log" />
        <NoMembershipAlert />
      </>
    );
  }
  if (!can(currentMembership, 'checkContactability')) return <ForbiddenScreen />;
  const accountId = currentMembership.account.id;
  return <Contactability key={accountId} accountId={accountId} />;
}

const verdictOptions = [
  { value: '', label: 'Every verdict' },
  { value: 'true', label: 'Allowed' },
  { value: 'false', label: 'Not now' },
];

/**
 * "May I contact this number now?" (issue #35): a member checks a number, and every verdict kept (the team's here,
 * the customer's systems' through API v1) is listed, newest first, filtered by number and verdict.
 */
function Contactability({ accountId }: { accountId: number }) {
  const { api } = useServices();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const query = useQuery({
    ...contactabilityListQueryOptions(api, accountId, search),
    // While another page or filter loads, keep this account's rows on screen (never another account's).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === contactabilityKeys.all(accountId)[1] ? previous : undefined,
  });

  // Filters send the reader back to page 1; `replace` keeps typing in the search box from filling the history.
  const update = useCallback(
    (patch: Partial<ContactabilitySearch>) =>
      void navigate({
        search: (previous: ContactabilitySearch) => ({ ...previous, ...patch, pageNumber: 1 }),
        replace: true,
      }),
    [navigate],
  );

  const filtered = search.phone !== undefined || search.allowed !== undefined;
  const { data, isPlaceholderData } = query;
  const never = data !== undefined && data.count === 0 && !filtered && !isPlaceholderData;

  return (
    <>
      <PageHeader title="Activity Log" />
      <ActivityLogTabs current="contactability" />
      <Stack gap="lg">
        <CheckNumberForm accountId={accountId} />
        <Stack gap="md" component="section" aria-labelledby="verdicts-heading">
          <Title order={2} size="h4" id="verdicts-heading">
            Verdicts kept
          </Title>
          {!never && (
            <Group align="flex-end" gap="sm" wrap="wrap" role="search" aria-label="Filter verdicts">
              <SearchBox
                label="Number"
                placeholder="Any digits of the number"
                flexBasis={240}
                q={search.phone ?? ''}
                onChange={(phone) => update({ phone: phone || undefined })}
              />
              <NativeSelect
                label="Verdict"
                data={verdictOptions}
                value={search.allowed === undefined ? '' : String(search.allowed)}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  update({ allowed: value === '' ? undefined : value === 'true' });
                }}
              />
            </Group>
          )}
          <ListStates
            query={query}
            skeleton={<CheckListSkeleton />}
            icon={<IconPhoneCheck />}
            errorTitle="The verdicts could not be loaded"
            never={
              never
                ? {
                    title: 'No numbers checked yet',
                    text: 'Every verdict, asked here or by your systems through API v1, is kept and listed here: your proof that you checked before calling or texting.',
                  }
                : undefined
            }
            noMatch={{
              title: 'No matching verdicts',
              text: 'Search for other digits, or choose every verdict.',
              onClear: () => update({ phone: undefined, allowed: undefined }),
            }}
            rowsNoun="verdicts"
            pager={logPager(
              search,
              (patch) =>
                void navigate({ search: (previous: ContactabilitySearch) => ({ ...previous, ...patch }) }),
            )}
          >
            {(checks, busy) => <CheckList checks={checks} busy={busy} />}
          </ListStates>
        </Stack>
      </Stack>
    </>
  );
}
