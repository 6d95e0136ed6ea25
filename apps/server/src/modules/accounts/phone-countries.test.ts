import { type CompanyInfo, PHONE_COUNTRIES, phoneCountriesTexts } from '@veriform/contracts';
import { getCountries } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { join, newOwner } from '../../test-support/teams.ts';

/** The countries an account's forms send codes to (issue 13 item 2), as Company Info reads and changes them. */

const t = useTestApp();

const permissionDenied = {
  detail: 'You are not permitted to perform that action.',
  MainCode_: 'permission_denied',
};

describe('phone countries of an account', () => {
  it('the contract lists exactly the regions libphonenumber-js knows', () => {
    expect([...PHONE_COUNTRIES].sort()).toEqual([...getCountries()].sort());
  });

  it('a new account allows the US only; any member reads the list, an owner changes it', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canSearchData: true, canViewReports: true });
    const url = `/api/accounts/${owner.accountId}`;
    for (const c of [owner.c, member.c]) {
      expect((await c.get(url)).json<CompanyInfo>().phoneCountries).toEqual(['US']);
    }

    const changed = await owner.c.patch(url, { phoneCountries: ['US', 'CA', 'MX', 'CA'] });
    expect(changed.statusCode).toBe(200);
    // Repeats are dropped; the name is untouched.
    expect(changed.json<CompanyInfo>()).toEqual({
      id: owner.accountId,
      displayName: 'Acme Inc.',
      uploadedProfileImage: null,
      phoneCountries: ['US', 'CA', 'MX'],
      auditRetentionYears: 2,
      consentMaxAgeMonths: 18,
      requireMfa: false,
    });
    expect((await member.c.get(url)).json<CompanyInfo>().phoneCountries).toEqual(['US', 'CA', 'MX']);

    // A rename keeps the countries; both at once change both.
    const renamed = await owner.c.patch(url, { displayName: 'Acme Global' });
    expect(renamed.json<CompanyInfo>().phoneCountries).toEqual(['US', 'CA', 'MX']);
    const both = await owner.c.patch(url, { displayName: 'Acme Europe', phoneCountries: ['GB', 'ES'] });
    expect(both.json<CompanyInfo>()).toMatchObject({
      displayName: 'Acme Europe',
      phoneCountries: ['GB', 'ES'],
    });
  });

  it('a member (not an owner) cannot change the list: 403, nothing changes', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canSearchData: true, canViewReports: true });
    const url = `/api/accounts/${owner.accountId}`;
    const denied = await member.c.patch(url, { phoneCountries: ['US', 'RU'] });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual(permissionDenied);
    expect((await owner.c.get(url)).json<CompanyInfo>().phoneCountries).toEqual(['US']);
  });

  it("another account's id answers 404, and changes nothing there", async () => {
    const owner = await newOwner(t.app);
    const stranger = await newOwner(t.app);
    const url = `/api/accounts/${owner.accountId}`;
    const refused = await stranger.c.patch(url, { phoneCountries: ['US', 'KP'] });
    expect(refused.statusCode).toBe(404);
    expect((await owner.c.get(url)).json<CompanyInfo>().phoneCountries).toEqual(['US']);
  });

  it.each([
    ['an unknown code', ['US', 'XX'], { 'phoneCountries.1': [phoneCountriesTexts.unknown('XX')] }],
    ['a lower-case code', ['us'], { 'phoneCountries.0': [phoneCountriesTexts.unknown('us')] }],
    ['a three-letter code', ['USA'], { 'phoneCountries.0': [phoneCountriesTexts.unknown('USA')] }],
    ['a number', [1], { 'phoneCountries.0': [phoneCountriesTexts.unknown('1')] }],
    ['a non-geographic "country"', ['001'], { 'phoneCountries.0': [phoneCountriesTexts.unknown('001')] }],
    ['an empty list', [], { phoneCountries: [phoneCountriesTexts.empty] }],
    ['a string', 'US', { phoneCountries: ['Expected array, received string'] }],
  ])('refuses %s with 400 on the field, and keeps the list', async (_name, phoneCountries, fields) => {
    const owner = await newOwner(t.app);
    const url = `/api/accounts/${owner.accountId}`;
    const refused = await owner.c.patch(url, { phoneCountries });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ ...fields, MainCode_: 'validation_error' });
    expect((await owner.c.get(url)).json<CompanyInfo>().phoneCountries).toEqual(['US']);
  });

  it('refuses a body with neither the name nor the countries', async () => {
    const owner = await newOwner(t.app);
    const refused = await owner.c.patch(`/api/accounts/${owner.accountId}`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ MainCode_: 'validation_error' });
  });
});
