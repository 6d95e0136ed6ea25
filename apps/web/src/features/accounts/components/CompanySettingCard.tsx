import { useQuery } from '@tanstack/react-query';
import { type CompanyInfo, can, type Membership } from '@veriform/contracts';
import type { ReactNode } from 'react';
import { type SettingBodyProps, SettingCard } from '../../../components/layout/SettingCard';
import { useServices } from '../../../lib/services';
import { companyInfoQueryOptions } from '../api';

/**
 * One of Company Info's setting cards: the company info read (one query, shared by every card) and whether the member
 * may change it (owners: `manageCompany`; the server refuses anyone else), around `SettingCard`.
 */
export function CompanySettingCard({
  membership,
  ...card
}: Omit<SettingBodyProps<CompanyInfo>, 'read' | 'owner'> & {
  membership: Membership;
  title: string;
  description: ReactNode;
}) {
  const { api } = useServices();
  const read = useQuery(companyInfoQueryOptions(api, membership.account.id));
  return <SettingCard {...card} read={read} owner={can(membership, 'manageCompany')} />;
}
