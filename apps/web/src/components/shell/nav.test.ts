import type { Membership } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import {
  validateVerificationSearch,
  verificationSearchForAnotherAccount,
} from '../../lib/verification-search';
import { initialsFor, objectListOf, rewriteAccountSegment, visibleNavItems } from './nav';

const m = (over: Partial<Membership>): Membership => ({
  id: 1,
  role: 'member',
  canSearchData: false,
  canViewReports: false,
  account: { id: 1, displayName: 'Acme', uploadedProfileImage: null },
  ...over,
});

const labels = (membership: Membership | null) => visibleNavItems(membership).map((item) => item.label);

describe('visibleNavItems', () => {
  it('shows everything to owners', () => {
    expect(labels(m({ role: 'owner' }))).toEqual(['Dashboard', 'Activity Log', 'Forms']);
  });
  it('follows the member permissions', () => {
    expect(labels(m({}))).toEqual(['Forms']);
    expect(labels(m({ canViewReports: true }))).toEqual(['Dashboard', 'Forms']);
    expect(labels(m({ canSearchData: true }))).toEqual(['Activity Log', 'Forms']);
  });
  it('shows Forms only without a membership', () => {
    expect(labels(null)).toEqual(['Forms']);
  });
});

describe('initialsFor', () => {
  it.each([
    ['Ada Lovelace', 'x@y.z', 'AL'],
    ['Ada Augusta King Lovelace', '', 'AL'],
    ['ada', '', 'A'],
    ['', 'ada.king@example.com', 'AK'],
    ['', 'bob@example.com', 'B'],
    ['', '', '?'],
  ])('%s / %s → %s', (name, email, expected) => {
    expect(initialsFor(name, email)).toBe(expected);
  });
});

describe('rewriteAccountSegment', () => {
  it('replaces the account id', () => {
    expect(rewriteAccountSegment('/accounts/3/forms', 9)).toBe('/accounts/9/forms');
    expect(rewriteAccountSegment('/forms/', 9)).toBe('/forms/');
  });
  it('rewrites a segment at the end, and only the first one', () => {
    expect(rewriteAccountSegment('/accounts/3', 9)).toBe('/accounts/9');
    expect(rewriteAccountSegment('/accounts/3/', 9)).toBe('/accounts/9/');
    expect(rewriteAccountSegment('/x/accounts/3/forms/accounts/4', 9)).toBe('/x/accounts/9/forms/accounts/4');
  });
  it('leaves look-alikes alone', () => {
    expect(rewriteAccountSegment('/myaccounts/3', 9)).toBe('/myaccounts/3');
    expect(rewriteAccountSegment('/accounts/', 9)).toBe('/accounts/');
    expect(rewriteAccountSegment('/settings/company-info', 9)).toBe('/settings/company-info');
  });
});

describe('objectListOf (switching accounts on a page of one object)', () => {
  it('names the list of a form or a verification page', () => {
    expect(objectListOf('/forms/7')).toBe('/forms/');
    expect(objectListOf('/forms/7/')).toBe('/forms/');
    expect(objectListOf('/activity-log/12345')).toBe('/activity-log/');
  });
  it('leaves lists and other pages alone', () => {
    expect(objectListOf('/forms/')).toBeNull();
    expect(objectListOf('/activity-log/')).toBeNull();
    expect(objectListOf('/activity-log/attempts')).toBeNull();
    expect(objectListOf('/activity-log/revocations')).toBeNull();
    expect(objectListOf('/activity-log/contactability')).toBeNull();
    expect(objectListOf('/dashboard/')).toBeNull();
    expect(objectListOf('/settings/manage-team')).toBeNull();
    expect(objectListOf('/accounts/3/forms/7/x')).toBeNull();
  });
  it('keeps the log view that means the same in another account', () => {
    const search = validateVerificationSearch({
      verifyFormId__in: ['7'],
      verifyFormCategory__in: ['Loans'],
      verificationMethod__in: ['sms'],
      created__date__preset: 'last7d',
      q: 'CRM',
      o: 'cellPhone',
      pageNumber: '4',
      pageSize: '25',
    });
    expect(verificationSearchForAnotherAccount(search)).toEqual({
      // Live or test data means the same in any account (issue #33).
      mode: 'live',
      verifyFormId__in: undefined,
      verifyFormCategory__in: undefined,
      verificationMethod__in: ['sms'],
      created__date__preset: 'last7d',
      q: 'CRM',
      o: 'cellPhone',
      pageNumber: 1,
      pageSize: 25,
    });
  });
});
