import { createFileRoute } from '@tanstack/react-router';
import { CompanyInfo } from '../../../features/accounts/components/CompanyInfo';
import { usePageTitle } from '../../../lib/page-title';

export const Route = createFileRoute('/_authed/settings/company-info')({
  component: CompanyInfoPage,
});

function CompanyInfoPage() {
  usePageTitle('Company Info');
  return <CompanyInfo />;
}
