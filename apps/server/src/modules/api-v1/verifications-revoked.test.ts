import type {
  ApiCheckResult,
  ApiRevocation,
  ApiVerification,
  ApiVerificationList,
} from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { keyCall, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { latestCodeTo } from '../../test-support/codes.ts';
import { addTestNumber, createPublicForm, newCellPhone } from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';

/**
 * Issue #35 in API v1's verification object: `revokedAt` and `revocationId` name the first open or acknowledged
 * revocation of its number or address received since approval, of the key's own mode; null unless approved and
 * revoked since. A later approval is new consent.
 */

const t = useTestApp();

const RESEND_SPACING_MS = 31_000;

async function keys(owner: Owner, mode: 'live' | 'test') {
  const { key } = await newApiKey(
    owner,
    ['verifications:read', 'verifications:write', 'revocations:read', 'revocations:write'],
    mode,
  );
  const call = keyCall(t.app, key);
  const json = async <T>(method: 'GET' | 'POST', url: string, body?: unknown, status = 200): Promise<T> => {
    const response = await call(method, url, body);
    expect(response.statusCode, response.body).toBe(status);
    return response.json<T>();
  };
  return {
    start: (formId: number, to: string) =>
      json<ApiVerification>('POST', '/api/v1/verifications', { formId, to }, 201),
    check: (id: string, code: string) =>
      json<ApiCheckResult>('POST', `/api/v1/verifications/${id}/check`, { code }),
    get: (id: string) => json<ApiVerification>('GET', `/api/v1/verifications/${id}`),
    list: () => json<ApiVerificationList>('GET', '/api/v1/verifications?limit=100'),
    revoke: (body: Record<string, unknown>) =>
      json<ApiRevocation>('POST', '/api/v1/revocations', { via: 'phone_call', note: '', ...body }, 201),
  };
}

const revokedOf = (v: ApiVerification | undefined) => ({
  revokedAt: v?.revokedAt,
  revocationId: v?.revocationId,
});
const none = { revokedAt: null, revocationId: null };

describe('API v1 verifications: revokedAt and revocationId', () => {
  it('null until a revocation since approval; never on a code not approved; a later approval is new consent', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const live = await keys(owner, 'live');
    const phone = newCellPhone();
    const approved = await live.start(form.id, phone.e164);
    const id = approved.id ?? '';
    expect(revokedOf(approved)).toEqual(none);
    const checked = await live.check(id, await latestCodeTo(t.app, phone.e164));
    expect(checked.status).toBe('approved');
    expect(revokedOf(checked.verification)).toEqual(none);

    t.clock.advance(RESEND_SPACING_MS);
    const pending = await live.start(form.id, phone.e164);
    const pendingId = pending.id ?? '';

    t.clock.advance(1000);
    const revocation = await live.revoke({ phone: phone.e164 });
    expect(revokedOf(await live.get(id))).toEqual({
      revokedAt: revocation.receivedAt,
      revocationId: revocation.id,
    });
    expect(revokedOf((await live.list()).data.find((v) => v.id === id))).toEqual({
      revokedAt: revocation.receivedAt,
      revocationId: revocation.id,
    });
    // Not approved: nothing to revoke.
    expect(revokedOf(await live.get(pendingId))).toEqual(none);

    // Approved after the revocation: new consent, not revoked; the earlier one still is.
    t.clock.advance(1000);
    const later = await live.check(pendingId, await latestCodeTo(t.app, phone.e164));
    expect(later.status).toBe('approved');
    expect(revokedOf(later.verification)).toEqual(none);
    expect(revokedOf(await live.get(pendingId))).toEqual(none);
    expect((await live.get(id)).revocationId).toBe(revocation.id);
  });

  it('a test key’s revocation reaches test verifications only; a live one never a test verification', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const live = await keys(owner, 'live');
    const test = await keys(owner, 'test');
    const testNumber = newCellPhone();
    await addTestNumber(owner, testNumber.e164, '246810');
    const testVerification = await test.start(form.id, testNumber.e164);
    const testId = testVerification.id ?? '';
    expect((await test.check(testId, '246810')).status).toBe('approved');

    const livePhone = newCellPhone();
    const liveVerification = await live.start(form.id, livePhone.e164);
    const liveId = liveVerification.id ?? '';
    expect((await live.check(liveId, await latestCodeTo(t.app, livePhone.e164))).status).toBe('approved');

    t.clock.advance(1000);
    // Each mode revokes the other's number: neither marks.
    await live.revoke({ phone: testNumber.e164 });
    await test.revoke({ phone: livePhone.e164 });
    expect(revokedOf(await test.get(testId))).toEqual(none);
    expect(revokedOf(await live.get(liveId))).toEqual(none);

    const own = await test.revoke({ phone: testNumber.e164 });
    expect(revokedOf(await test.get(testId))).toEqual({ revokedAt: own.receivedAt, revocationId: own.id });
    expect((await test.list()).data.find((v) => v.id === testId)?.revocationId).toBe(own.id);
    expect(revokedOf(await live.get(liveId))).toEqual(none);
  });

  it('another account’s revocation of the same number never marks', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const live = await keys(owner, 'live');
    const phone = newCellPhone();
    const started = await live.start(form.id, phone.e164);
    const id = started.id ?? '';
    expect((await live.check(id, await latestCodeTo(t.app, phone.e164))).status).toBe('approved');
    t.clock.advance(1000);
    const stranger = await keys(await newOwner(t.app, 'Stranger'), 'live');
    await stranger.revoke({ phone: phone.e164 });
    expect(revokedOf(await live.get(id))).toEqual(none);
  });
});
