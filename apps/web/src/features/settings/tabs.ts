import type { Membership } from '@veriform/contracts';
import { canManageApiKeys } from '../api-keys/api';

export const settingsTabs = [
  { id: 'company-info', label: 'Company Info', to: '/settings/company-info' },
  { id: 'manage-team', label: 'Manage Team', to: '/settings/manage-team' },
  { id: 'api-keys', label: 'API keys', to: '/settings/api-keys' },
  { id: 'my-account', label: 'My Account', to: '/settings/my-account' },
] as const;

export type SettingsTab = (typeof settingsTabs)[number];

/** The tabs the current membership may open: API keys are the owners' (issue #15; members would get 403). */
export function visibleSettingsTabs(membership: Membership | null): SettingsTab[] {
  return settingsTabs.filter((tab) => tab.id !== 'api-keys' || canManageApiKeys(membership));
}

/** The tab whose id appears in the path (SPEC §2), or null. */
export function activeSettingsTab(pathname: string): string | null {
  const segments = pathname.split('/');
  return settingsTabs.find((tab) => segments.includes(tab.id))?.id ?? null;
}
