import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import type { AuditSearch } from '@veriform/contracts';
import { useCallback } from 'react';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import {
  auditEventListQueryOptions,
  auditListParams,
  canReadAuditLog,
} from '../../../features/audit-log/api';
import { AuditLog } from '../../../features/audit-log/components/AuditLog';
import { auditSearchDefaults, validateAuditSearch } from '../../../features/audit-log/search';
import { usePageTitle } from '../../../lib/page-title';
import { useSession } from '../../../lib/session';

export const Route = createFileRoute('/_authed/settings/audit-log')({
  // Every bad value in a shared link falls back to its default, as the activity log's do.
  validateSearch: validateAuditSearch,
  // Defaults stay out of the URL: /settings/audit-log is the plain link.
  search: { middlewares: [stripSearchParams(auditSearchDefaults)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    const membership = context.session.get().currentMembership;
    if (!membership || !canReadAuditLog(membership)) return;
    // Starts the read without waiting: the page shows at once with its filters and a skeleton where the rows go. A
    // failed read is shown inside the page (Try again).
    void context.queryClient
      .ensureQueryData(auditEventListQueryOptions(context.api, membership.account.id, auditListParams(deps)))
      .catch(() => undefined);
  },
  component: AuditLogPage,
});

function NoMembership() {
  usePageTitle('Audit log');
  return <NoMembershipAlert />;
}

/** Issue #16: owners only. A member who types the address gets the permission screen, as on API keys. */
function AuditLogPage() {
  const { currentMembership } = useSession();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const onSearch = useCallback(
    (patch: Partial<AuditSearch>, options: { replace?: boolean } = {}) =>
      void navigate({
        search: (previous: AuditSearch) => ({ ...previous, ...patch }),
        replace: options.replace ?? false,
      }),
    [navigate],
  );
  if (!currentMembership) return <NoMembership />;
  if (!canReadAuditLog(currentMembership)) return <ForbiddenScreen />;
  return (
    <AuditLog
      key={currentMembership.account.id}
      membership={currentMembership}
      search={search}
      onSearch={onSearch}
    />
  );
}
