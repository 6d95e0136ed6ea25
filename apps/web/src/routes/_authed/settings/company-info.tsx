import { createFileRoute } from '@tanstack/react-router';
import { CompanyInfo } from '../../../features/accounts/components/CompanyInfo';
import { DomainsCard } from '../../../features/domains/components/DomainsCard';
import { RetentionCard } from '../../../features/retention/components/RetentionCard';
import { TestNumbersCard } from '../../../features/test-numbers/components/TestNumbersCard';
import { usePageTitle } from '../../../lib/page-title';

export const Route = createFileRoute('/_authed/settings/company-info')({
  component: CompanyInfoPage,
});

function CompanyInfoPage() {
  usePageTitle('Company Info');
  return (
    <CompanyInfo
      moreCards={(membership) => (
        <>
          <DomainsCard membership={membership} />
          <RetentionCard membership={membership} />
          <TestNumbersCard membership={membership} />
        </>
      )}
    />
  );
}
