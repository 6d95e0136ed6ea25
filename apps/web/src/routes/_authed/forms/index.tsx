import { IconForms } from '@tabler/icons-react';
import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../../../components/layout/EmptyState';
import { PageHeader } from '../../../components/layout/PageHeader';
import { requireAccount } from '../../../lib/require-account';
import { useSession } from '../../../lib/session';

export const Route = createFileRoute('/_authed/forms/')({
  beforeLoad: requireAccount,
  component: FormsPage,
});

function FormsPage() {
  const { currentMembership } = useSession();
  return (
    <>
      <PageHeader title="Forms" />
      <EmptyState icon={<IconForms />} title="No forms yet">
        {currentMembership
          ? 'Verification forms of this company will be listed here.'
          : 'You are not a member of a company account yet, so there are no forms to show.'}
      </EmptyState>
    </>
  );
}
