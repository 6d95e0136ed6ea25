import { Button, Group, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft, IconHandStop } from '@tabler/icons-react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { bigIdParamsSchema, can, type VerificationDetail } from '@veriform/contracts';
import { useState } from 'react';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { PageHeader } from '../../../components/layout/PageHeader';
import { AnchorLink } from '../../../components/links';
import { CertificateActions } from '../../../features/certificates/components/CertificateActions';
import { RecordRevocationModal } from '../../../features/revocations/components/RecordRevocationModal';
import {
  verificationKeys,
  verificationQueryOptions,
  verificationTimelineQueryOptions,
} from '../../../features/verifications/api';
import { VerificationDetailView } from '../../../features/verifications/components/VerificationDetailView';
import { NotFoundError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { useSession } from '../../../lib/session';
import { validateVerificationSearch } from '../../../lib/verification-search';

/** A path id the API could know (verification ids are 64-bit); anything else is simply not found. */
function parseVerificationId(raw: string): number | null {
  const parsed = bigIdParamsSchema.safeParse({ id: raw });
  return parsed.success && /^\d+$/.test(raw) ? parsed.data.id : null;
}

export const Route = createFileRoute('/_authed/activity-log/$verificationId')({
  // The log's search params ride along (SPEC §2: "same search params"), so Back returns to the same view.
  validateSearch: validateVerificationSearch,
  // The search only matters to the Back link: changing it must not reload the verification.
  loaderDeps: () => ({}),
  loader: async ({ context, params }) => {
    const membership = context.session.get().currentMembership;
    if (!membership || !can(membership, 'searchData')) return;
    const id = parseVerificationId(params.verificationId);
    // An id of another account answers 404 like an unknown one (DESIGN §5); both show the not-found screen, as a
    // malformed id does. Other failures show the route's error screens (Oh dear. with Try again).
    if (id === null) throw new NotFoundError(undefined);
    // The timeline starts loading with the detail but is not waited for: its card shows a skeleton until it comes.
    void context.queryClient.prefetchQuery(
      verificationTimelineQueryOptions(context.api, membership.account.id, id),
    );
    await context.queryClient.ensureQueryData(
      verificationQueryOptions(context.api, membership.account.id, id),
    );
  },
  pendingComponent: () => (
    <>
      <PageHeader title="Verification" />
      <Stack gap="md" role="group" aria-busy="true" aria-label="Loading verification">
        <Skeleton height={28} width="40%" radius="sm" />
        <Skeleton height={160} radius="md" />
        <Skeleton height={160} radius="md" />
      </Stack>
    </>
  ),
  component: VerificationPage,
});

function BackLink() {
  const search = Route.useSearch();
  return (
    <AnchorLink
      to="/activity-log/"
      search={search}
      size="sm"
      mb="sm"
      display="inline-flex"
      style={{ gap: 4 }}
    >
      <IconArrowLeft size={16} aria-hidden="true" />
      Back to Activity Log
    </AnchorLink>
  );
}

function VerificationPage() {
  const { currentMembership } = useSession();
  if (!currentMembership) {
    return (
      <>
        <PageHeader title="Verification" />
        <NoMembershipAlert />
      </>
    );
  }
  if (!can(currentMembership, 'searchData')) return <ForbiddenScreen />;
  return (
    <VerificationDetailPage
      key={currentMembership.account.id}
      accountId={currentMembership.account.id}
      canManageEvidence={can(currentMembership, 'manageEvidence')}
    />
  );
}

function VerificationDetailPage({
  accountId,
  canManageEvidence,
}: {
  accountId: number;
  canManageEvidence: boolean;
}) {
  const { api } = useServices();
  const { verificationId } = Route.useParams();
  // The loader checked the id and loaded the data (or threw to the error screens).
  const { data } = useSuspenseQuery(verificationQueryOptions(api, accountId, Number(verificationId)));
  return (
    <>
      <BackLink />
      <PageHeader title="Verification" />
      <VerificationDetailView
        verification={data}
        accountId={accountId}
        actions={
          <Group gap="sm">
            <RecordRevocationAction accountId={accountId} verification={data} />
            <CertificateActions
              accountId={accountId}
              verification={data}
              canManageEvidence={canManageEvidence}
            />
          </Group>
        }
      />
    </>
  );
}

/**
 * A revocation the customer heard of elsewhere, recorded from the verification it concerns (issue #35): the
 * revocations feature's own dialog, with the verification's number filled in (the member may add the address). The
 * page is for members with canSearchData, who may record revocations. None for a redacted verification: its number
 * is masked. Once recorded, the verification and the log read again, so the revocation shows at once.
 */
function RecordRevocationAction({
  accountId,
  verification,
}: {
  accountId: number;
  verification: VerificationDetail;
}) {
  const { queryClient } = useServices();
  const [opened, setOpened] = useState(false);
  if (verification.redactedAt) return null;
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconHandStop size={16} aria-hidden="true" />}
        onClick={() => setOpened(true)}
      >
        Record revocation
      </Button>
      <RecordRevocationModal
        accountId={accountId}
        opened={opened}
        initial={{ phone: verification.cellPhone }}
        onClose={() => setOpened(false)}
        onRecorded={() => {
          setOpened(false);
          notify.success('Revocation recorded');
          void queryClient.invalidateQueries({ queryKey: verificationKeys.all(accountId) });
        }}
      />
    </>
  );
}
