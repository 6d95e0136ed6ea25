import type { Membership } from '@veriform/contracts';
import { canManageApiKeys } from '../api-keys/api';
import { canReadAuditLog } from '../audit-log/api';
import { canReadLegalHolds } from '../legal-holds/api';
import { canManagePrivacyRequests } from '../privacy-requests/api';
import { canManageSso } from '../sso/api';
import { canManageWebhooks } from '../webhooks/api';

export const settingsTabs = [
  { id: 'company-info', label: 'Company Info', to: '/settings/company-info' },
  { id: 'manage-team', label: 'Manage Team', to: '/settings/manage-team' },
  { id: 'api-keys', label: 'API keys', to: '/settings/api-keys' },
  { id: 'webhooks', label: 'Webhooks', to: '/settings/webhooks' },
  { id: 'audit-log', label: 'Audit log', to: '/settings/audit-log' },
  { id: 'privacy-requests', label: 'Privacy requests', to: '/settings/privacy-requests' },
  { id: 'legal-holds', label: 'Legal holds', to: '/settings/legal-holds' },
  { id: 'single-sign-on', label: 'Single sign-on', to: '/settings/single-sign-on' },
  { id: 'my-account', label: 'My Account', to: '/settings/my-account' },
] as const;

export type SettingsTab = (typeof settingsTabs)[number];

/**
 * The tabs the current membership may open: API keys, webhooks, the audit log, privacy requests and single sign-on are the owners'
 * (members would get 403).
 */
export function visibleSettingsTabs(membership: Membership | null): SettingsTab[] {
  return settingsTabs.filter((tab) => {
    if (tab.id === 'api-keys') return canManageApiKeys(membership);
    if (tab.id === 'webhooks') return canManageWebhooks(membership);
    if (tab.id === 'audit-log') return canReadAuditLog(membership);
    if (tab.id === 'privacy-requests') return canManagePrivacyRequests(membership);
    if (tab.id === 'single-sign-on') return canManageSso(membership);
    // Members who may search the account's data read them (a hold names a number or an address).
    if (tab.id === 'legal-holds') return canReadLegalHolds(membership);
    return true;
  });
}

/** The tab whose id appears in the path (SPEC §2), or null. */
export function activeSettingsTab(pathname: string): string | null {
  const segments = pathname.split('/');
  return settingsTabs.find((tab) => segments.includes(tab.id))?.id ?? null;
}
