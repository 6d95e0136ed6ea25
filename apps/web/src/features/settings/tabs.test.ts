import { describe, expect, it } from 'vitest';
import { activeSettingsTab } from './tabs';

describe('activeSettingsTab', () => {
  it('finds the tab id in the path', () => {
    expect(activeSettingsTab('/settings/company-info')).toBe('company-info');
    expect(activeSettingsTab('/settings/manage-team/')).toBe('manage-team');
    expect(activeSettingsTab('/settings/my-account')).toBe('my-account');
    expect(activeSettingsTab('/settings')).toBeNull();
  });
});
