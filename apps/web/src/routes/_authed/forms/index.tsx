import { Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFilterOff, IconForms, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { type FormListSearch, formListSearchSchema } from '@veriform/contracts';
import { lazy, Suspense, useCallback, useRef } from 'react';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { DeferredPagination } from '../../../components/layout/DeferredPagination';
import { EmptyState } from '../../../components/layout/EmptyState';
import { PageHeader } from '../../../components/layout/PageHeader';
import {
  formCategoriesQueryOptions,
  verifyFormKeys,
  verifyFormListQueryOptions,
} from '../../../features/verify-forms/api';
import {
  FormFilters,
  type FormSearchPatch,
  hasActiveFilters,
} from '../../../features/verify-forms/components/FormFilters';
import { FormsTable, FormsTableSkeleton } from '../../../features/verify-forms/components/FormsTable';
import { useServices } from '../../../lib/services';
import { useSession } from '../../../lib/session';

// Its Modal (scroll lock, focus trap, overlay) is fetched when the dialog is first opened, not with the page.
const NewFormModal = lazy(() =>
  import('../../../features/verify-forms/components/NewFormModal').then((module) => ({
    default: module.NewFormModal,
  })),
);

const formListSearchDefaults = formListSearchSchema.parse({});

export const Route = createFileRoute('/_authed/forms/')({
  // SPEC §2: every bad value in a shared link falls back to its default.
  validateSearch: formListSearchSchema,
  // Defaults stay out of the URL: /forms/ is the plain link, a shared link carries only what was chosen.
  search: { middlewares: [stripSearchParams(formListSearchDefaults)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const accountId = context.session.get().currentMembership?.account.id;
    if (accountId === undefined) return;
    // A failed read is shown inside the page (with Try again), under the page's own heading.
    await context.queryClient
      .ensureQueryData(verifyFormListQueryOptions(context.api, accountId, deps))
      .catch(() => undefined);
  },
  pendingComponent: () => (
    <>
      <PageHeader title="Forms" />
      <FormsTableSkeleton />
    </>
  ),
  component: FormsPage,
});

function FormsPage() {
  const { currentMembership } = useSession();
  if (!currentMembership) return <NoMembershipAlert />;
  return <FormsList key={currentMembership.account.id} accountId={currentMembership.account.id} />;
}

const clearedFilters: FormSearchPatch = {
  isLive: undefined,
  status: 'all',
  language: 'all',
  category__in: undefined,
  created__date__preset: 'all',
  created__date__gte: undefined,
  created__date__lte: undefined,
  q: undefined,
};

function FormsList({ accountId }: { accountId: number }) {
  const { api } = useServices();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const [newOpened, newDialog] = useDisclosure(false);
  // Once opened, the dialog stays mounted so that closing it plays its transition.
  const newEverOpened = useRef(false);
  if (newOpened) newEverOpened.current = true;
  const { data, isPending, isError, error, refetch } = useQuery({
    ...verifyFormListQueryOptions(api, accountId, search),
    // While another page or filter loads, keep this account's rows on screen (never another account's).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === verifyFormKeys.all(accountId)[1] ? previous : undefined,
  });
  const { data: categories = [] } = useQuery(formCategoriesQueryOptions(api, accountId));

  const update = useCallback(
    (patch: FormSearchPatch) =>
      void navigate({
        search: (previous: FormListSearch) => ({ ...previous, ...patch, pageNumber: 1 }),
        replace: true,
      }),
    [navigate],
  );
  const newFormButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={newDialog.open}>
      New form
    </Button>
  );
  const filtered = hasActiveFilters(search);
  const neverCreated = data !== undefined && data.count === 0 && !filtered;

  let body: React.ReactNode;
  if (isPending) body = <FormsTableSkeleton />;
  else if (isError)
    body = (
      <EmptyState icon={<IconForms />} title="The forms could not be loaded">
        {error.message}{' '}
        <Button variant="subtle" size="compact-sm" onClick={() => void refetch()}>
          Try again
        </Button>
      </EmptyState>
    );
  else if (data.results.length === 0 && neverCreated)
    body = (
      <EmptyState icon={<IconForms />} title="No forms yet">
        A verification form is a hosted page where a consumer proves a phone number is theirs with a one-time
        code sent by SMS. Create a form, give it a banner, then switch it on and share its link.
        <Group justify="center" mt="md">
          {newFormButton}
        </Group>
      </EmptyState>
    );
  else if (data.results.length === 0)
    body = (
      <EmptyState icon={<IconFilterOff />} title="No forms match these filters">
        Try another search, or clear the filters to see every form of this company.
        <Group justify="center" mt="md">
          <Button variant="default" onClick={() => update(clearedFilters)}>
            Clear filters
          </Button>
        </Group>
      </EmptyState>
    );
  else
    body = (
      <>
        <FormsTable forms={data.results} />
        <Group justify="space-between" mt="md" wrap="wrap">
          <Text size="sm" c="dimmed">
            {data.count === 1 ? '1 form' : `${data.count} forms`}
          </Text>
          {data.count > data.pageSize && (
            <DeferredPagination
              total={Math.ceil(data.count / data.pageSize)}
              value={data.pageNumber}
              onChange={(pageNumber) =>
                void navigate({ search: (previous: FormListSearch) => ({ ...previous, pageNumber }) })
              }
              getControlProps={(control) =>
                control === 'next'
                  ? { 'aria-label': 'Next page' }
                  : control === 'previous'
                    ? { 'aria-label': 'Previous page' }
                    : {}
              }
            />
          )}
        </Group>
      </>
    );

  return (
    <>
      <PageHeader title="Forms" actions={neverCreated ? undefined : newFormButton} />
      {!neverCreated && <FormFilters search={search} categories={categories} onChange={update} />}
      {body}
      {newEverOpened.current && (
        <Suspense fallback={null}>
          <NewFormModal opened={newOpened} onClose={newDialog.close} accountId={accountId} />
        </Suspense>
      )}
    </>
  );
}
