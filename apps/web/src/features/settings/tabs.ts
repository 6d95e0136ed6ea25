export const settingsTabs = [
  { id: 'company-info', label: 'Company Info', to: '/settings/company-info' },
  { id: 'manage-team', label: 'Manage Team', to: '/settings/manage-team' },
  { id: 'my-account', label: 'My Account', to: '/settings/my-account' },
] as const;

/** The tab whose id appears in the path (SPEC §2), or null. */
export function activeSettingsTab(pathname: string): string | null {
  const segments = pathname.split('/');
  return settingsTabs.find((tab) => segments.includes(tab.id))?.id ?? null;
}
