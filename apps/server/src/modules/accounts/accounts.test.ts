import type { Account, CompanyInfo, CreateAccountResponse } from '@veriform/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { DAY } from '../../test-support/clock.ts';
import { solidImage } from '../../test-support/images.ts';
import { type FormPart, multipartBody } from '../../test-support/multipart.ts';
import { initialDataOf } from '../../test-support/outbox.ts';
import { join, newOwner, newPerson } from '../../test-support/teams.ts';

const t = useTestApp();

const permissionDenied = {
  detail: 'You are not permitted to perform that action.',
  MainCode_: 'permission_denied',
};
const FIELD = 'uploadedProfileImage';
const logo = async (data?: Buffer): Promise<FormPart[]> => [
  {
    name: FIELD,
    filename: 'logo.png',
    contentType: 'image/png',
    data: data ?? (await solidImage(300, 200, 'png')),
  },
];

describe('POST /api/accounts', () => {
  it('creates the account with its owner membership (both permissions), first and current everywhere', async () => {
    const { c } = await newPerson(t.app);
    const first = await c.post('/api/accounts', { displayName: '  First Co  ' });
    expect(first.statusCode).toBe(201);
    const created = first.json<CreateAccountResponse>();
    expect(created).toEqual({
      membership: {
        id: expect.any(Number),
        role: 'owner',
        canSearchData: true,
        canViewReports: true,
        account: { id: expect.any(Number), displayName: 'First Co', uploadedProfileImage: null },
      },
      justCreatedAccount: { membershipCreated: created.membership },
    });

    const second = (
      await c.post('/api/accounts', { displayName: 'Second Co' })
    ).json<CreateAccountResponse>();
    const me = (await c.post('/api/auth/refresh-me')).json();
    expect(me.memberships.map((m: { id: number }) => m.id)).toEqual([
      second.membership.id,
      created.membership.id,
    ]);
    expect(me.currentMembership).toEqual(second.membership);

    const page = initialDataOf((await c.get('/settings/company-info')).body);
    expect(page).toMatchObject({
      memberships: [second.membership, created.membership],
      currentMembership: second.membership,
    });
  });

  it('validates the name and needs a login and the CSRF token', async () => {
    const { c } = await newPerson(t.app);
    for (const displayName of ['', '   ', 'x'.repeat(101)]) {
      const response = await c.post('/api/accounts', { displayName });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toHaveProperty('displayName');
    }
    expect((await c.post('/api/accounts', { displayName: 'A' }, { csrf: false })).statusCode).toBe(403);
    const anonymous = (await newPerson(t.app)).c;
    await anonymous.post('/api/auth/logout');
    const response = await anonymous.post('/api/accounts', { displayName: 'A' });
    expect(response.statusCode).toBe(401);
  });

  it('limits creation to 20 accounts a day per user', async () => {
    const { c } = await newPerson(t.app);
    for (let i = 0; i < 20; i++)
      expect((await c.post('/api/accounts', { displayName: `Co ${i}` })).statusCode).toBe(201);
    const refused = await c.post('/api/accounts', { displayName: 'One too many' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    t.clock.advance(DAY + 1000);
    expect((await c.post('/api/accounts', { displayName: 'Next day' })).statusCode).toBe(201);
  });
});

describe('/api/accounts/{id}', () => {
  it('any member reads it; only owners rename it (trimmed)', async () => {
    const owner = await newOwner(t.app, 'Old Name');
    const member = await join(t.app, owner, { canSearchData: true, canViewReports: true });
    const url = `/api/accounts/${owner.accountId}`;
    for (const c of [owner.c, member.c]) {
      const read = await c.get(url);
      expect(read.statusCode).toBe(200);
      expect(read.json<CompanyInfo>()).toEqual({
        id: owner.accountId,
        displayName: 'Old Name',
        uploadedProfileImage: null,
        phoneCountries: ['US'],
        auditRetentionYears: 2,
        consentMaxAgeMonths: 18,
        requireMfa: false,
      });
    }
    const denied = await member.c.patch(url, { displayName: 'Hacked' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual(permissionDenied);

    const renamed = await owner.c.patch(url, { displayName: '  New Name ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<Account>().displayName).toBe('New Name');
    const me = (await member.c.post('/api/auth/refresh-me')).json();
    expect(me.currentMembership.account.displayName).toBe('New Name');
    expect((await owner.c.patch(url, { displayName: '' })).statusCode).toBe(400);
  });

  it('logo: the profile-picture rules, owners only, and delete', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const url = `/api/accounts/${owner.accountId}/update-uploaded-profile-image`;

    const denied = await member.c.postMultipart(url, multipartBody(await logo()));
    expect(denied.statusCode).toBe(403);

    const uploaded = await owner.c.postMultipart(url, multipartBody(await logo()));
    expect(uploaded.statusCode).toBe(200);
    const account = uploaded.json<Account>();
    expect(account.uploadedProfileImage).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
    const image = await t.app.inject({ method: 'GET', url: account.uploadedProfileImage ?? '' });
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 300,
      height: 200,
    });

    const refusals: [FormPart[], string][] = [
      [[{ name: 'note', value: 'x' }], 'You must provide a file.'],
      [
        await logo(Buffer.from('not an image')),
        'File type must be image/jpeg, image/png, image/webp, image/gif',
      ],
    ];
    for (const [parts, message] of refusals) {
      const refused = await owner.c.postMultipart(url, multipartBody(parts));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ [FIELD]: [message], MainCode_: 'validation_error' });
    }

    const deleteUrl = `/api/accounts/${owner.accountId}/delete-uploaded-profile-image`;
    expect((await member.c.patch(deleteUrl)).statusCode).toBe(403);
    const deleted = await owner.c.patch(deleteUrl);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json<Account>().uploadedProfileImage).toBeNull();
  });
});
