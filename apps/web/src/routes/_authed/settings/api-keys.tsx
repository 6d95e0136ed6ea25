import { createFileRoute } from '@tanstack/react-router';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { canManageApiKeys } from '../../../features/api-keys/api';
import { ApiKeys } from '../../../features/api-keys/components/ApiKeys';
import { usePageTitle } from '../../../lib/page-title';
import { useSession } from '../../../lib/session';

export const Route = createFileRoute('/_authed/settings/api-keys')({
  component: ApiKeysPage,
});

function NoMembership() {
  usePageTitle('API keys');
  return <NoMembershipAlert />;
}

/** Issue #15: owners only. A member who types the address gets the permission screen, as on the Dashboard. */
function ApiKeysPage() {
  const { currentMembership } = useSession();
  if (!currentMembership) return <NoMembership />;
  if (!canManageApiKeys(currentMembership)) return <ForbiddenScreen />;
  return <ApiKeys key={currentMembership.account.id} membership={currentMembership} />;
}
