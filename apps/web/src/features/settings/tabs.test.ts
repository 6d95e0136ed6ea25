import type { Membership } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { activeSettingsTab, visibleSettingsTabs } from './tabs';

const membership = (over: Partial<Membership>): Membership => ({
  id: 1,
  role: 'member',
  canSearchData: true,
  canViewReports: true,
  account: { id: 1, displayName: 'Acme', uploadedProfileImage: null },
  ...over,
});

const labels = (m: Membership | null) => visibleSettingsTabs(m).map((tab) => tab.label);

describe('activeSettingsTab', () => {
  it('finds the tab id in the path', () => {
    expect(activeSettingsTab('/settings/company-info')).toBe('company-info');
    expect(activeSettingsTab('/settings/manage-team/')).toBe('manage-team');
    expect(activeSettingsTab('/settings/api-keys')).toBe('api-keys');
    expect(activeSettingsTab('/settings/audit-log')).toBe('audit-log');
    expect(activeSettingsTab('/settings/webhooks')).toBe('webhooks');
    expect(activeSettingsTab('/settings/webhooks/12')).toBe('webhooks');
    expect(activeSettingsTab('/settings/privacy-requests/dsr_abc')).toBe('privacy-requests');
    expect(activeSettingsTab('/settings/legal-holds')).toBe('legal-holds');
    expect(activeSettingsTab('/settings/my-account')).toBe('my-account');
    expect(activeSettingsTab('/settings/single-sign-on')).toBe('single-sign-on');
    expect(activeSettingsTab('/settings')).toBeNull();
  });
});

describe('visibleSettingsTabs', () => {
  it('shows API keys, webhooks, the audit log and privacy requests to owners only', () => {
    expect(labels(membership({ role: 'owner' }))).toEqual([
      'Company Info',
      'Manage Team',
      'API keys',
      'Webhooks',
      'Audit log',
      'Privacy requests',
      'Legal holds',
      'Single sign-on',
      'My Account',
    ]);
    // Legal holds to members who may search the account's data too (read only).
    expect(labels(membership({}))).toEqual(['Company Info', 'Manage Team', 'Legal holds', 'My Account']);
    expect(labels(membership({ canSearchData: false }))).toEqual([
      'Company Info',
      'Manage Team',
      'My Account',
    ]);
    expect(labels(null)).toEqual(['Company Info', 'Manage Team', 'My Account']);
  });
});
