import { randomBytes } from 'node:crypto';
import { errorTexts, type VerifyForm, type VerifyFormStats } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { DAY } from '../../test-support/clock.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';

const t = useTestApp();

async function createForm(owner: Owner, name = 'Sign-up'): Promise<VerifyForm> {
  const response = await owner.c.post('/api/verify-forms', { account: owner.accountId, name });
  if (response.statusCode !== 201) throw new Error(`create form: ${response.statusCode} ${response.body}`);
  return response.json<VerifyForm>();
}

const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);

/** A verification as the public API stores it (inserted directly; that API is not what is tested here). */
async function verification(form: VerifyForm, createdAt: Date, verifiedAt: Date | null = createdAt) {
  await t.db.db.insert(schema.verifications).values({
    accountId: form.account,
    verifyFormId: form.id,
    cellPhone: '+12015550123',
    verifyFormName: form.name,
    verificationMethod: 'sms',
    createdAt,
    verifiedAt,
  });
}

/** A code sent through the form (an attempt row). */
async function attempt(form: VerifyForm, createdAt: Date) {
  await t.db.db.insert(schema.verificationAttempts).values({
    id: randomBytes(16).toString('base64url'),
    accountId: form.account,
    verifyFormId: form.id,
    cellPhone: '+12015550123',
    method: 'sms',
    codeHash: 'unused',
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 10 * 60 * 1000),
  });
}

describe('GET /api/verify-forms/{id}/stats', () => {
  it('a form without activity: zeros and no last verification', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const response = await owner.c.get(`/api/verify-forms/${form.id}/stats`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      verifications: 0,
      verificationsLast30Days: 0,
      codesSentLast30Days: 0,
      lastVerifiedAt: null,
    });
  });

  it('counts all, the last 30 days by the app clock, codes sent in 30 days, and the last verification', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const otherForm = await createForm(owner, 'Other');
    const latest = ago(2 * DAY);
    await verification(form, ago(40 * DAY));
    await verification(form, ago(31 * DAY));
    await verification(form, ago(29 * DAY));
    await verification(form, latest);
    // Not this form's: ignored.
    await verification(otherForm, ago(1000));
    await attempt(otherForm, ago(1000));

    await attempt(form, ago(45 * DAY));
    await attempt(form, ago(29 * DAY));
    await attempt(form, ago(2 * DAY));
    await attempt(form, ago(1 * DAY));
    await attempt(form, ago(60 * 1000));

    const stats = (await owner.c.get(`/api/verify-forms/${form.id}/stats`)).json<VerifyFormStats>();
    expect(stats).toEqual({
      verifications: 4,
      verificationsLast30Days: 2,
      codesSentLast30Days: 4,
      lastVerifiedAt: latest.toISOString(),
    });

    // Twenty days later the window has moved on (the one at 29 days drops out of both); the totals stay. The session
    // has expired by then: log in again.
    t.clock.advance(20 * DAY);
    try {
      await owner.c.post('/api/auth/login', { email: owner.email, password: owner.password });
      const later = (await owner.c.get(`/api/verify-forms/${form.id}/stats`)).json<VerifyFormStats>();
      expect(later).toEqual({ ...stats, verificationsLast30Days: 1, codesSentLast30Days: 3 });
    } finally {
      t.clock.advance(-20 * DAY);
    }
  });

  it('the last verification falls back to the creation time when verifiedAt is missing', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const created = ago(3 * DAY);
    await verification(form, created, null);
    const stats = (await owner.c.get(`/api/verify-forms/${form.id}/stats`)).json<VerifyFormStats>();
    expect(stats.lastVerifiedAt).toBe(created.toISOString());
  });

  it('needs canViewReports; another account’s form and an unknown id are 404', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const plain = await join(t.app, owner, { canSearchData: true });
    const reporter = await join(t.app, owner, { canViewReports: true });
    const denied = await plain.c.get(`/api/verify-forms/${form.id}/stats`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' });
    expect((await reporter.c.get(`/api/verify-forms/${form.id}/stats`)).statusCode).toBe(200);

    const stranger = await newOwner(t.app, 'Stranger');
    for (const url of [`/api/verify-forms/${form.id}/stats`, '/api/verify-forms/2000000000/stats']) {
      const response = await stranger.c.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not found.', MainCode_: 'not_found' });
    }
  });
});
