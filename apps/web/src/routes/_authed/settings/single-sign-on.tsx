import { createFileRoute } from '@tanstack/react-router';
import { ForbiddenScreen } from '../../../components/errors/ForbiddenScreen';
import { NoMembershipAlert } from '../../../components/errors/NoMembershipAlert';
import { canManageSso } from '../../../features/sso/api';
import { SsoSettings } from '../../../features/sso/components/SsoSettings';
import { usePageTitle } from '../../../lib/page-title';
import { useSession } from '../../../lib/session';

export const Route = createFileRoute('/_authed/settings/single-sign-on')({
  component: SingleSignOnPage,
});

function NoMembership() {
  usePageTitle('Single sign-on');
  return <NoMembershipAlert />;
}

/** Issue #38 item 4: owners only. A member who types the address gets the permission screen. */
function SingleSignOnPage() {
  const { currentMembership } = useSession();
  if (!currentMembership) return <NoMembership />;
  if (!canManageSso(currentMembership)) return <ForbiddenScreen />;
  return <SsoSettings key={currentMembership.account.id} membership={currentMembership} />;
}
