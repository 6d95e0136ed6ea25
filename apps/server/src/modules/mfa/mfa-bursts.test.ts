import { schema } from '@veriform/db';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { newOwner, nextIp } from '../../test-support/teams.ts';
import { codeAt, enrolTotp, nextStep } from '../../test-support/totp.ts';
import { LOGIN_FAILURE_LIMITS } from '../auth/index.ts';

/**
 * Second factors' "only once" rules and guess limits under bursts (issue #38), on both engines (engine-specific-tests.ts):
 * a pool of connections on PostgreSQL, PGlite's one connection.
 */
const t = useTestApp();
const BURST = 20;

/** The same browser (its cookies and CSRF token) from `n` different addresses: the per-IP guess limits stay apart. */
function sameBrowserFrom(c: TestClient, n: number): TestClient[] {
  return Array.from({ length: n }, () => {
    const copy = new TestClient(t.app, nextIp());
    for (const [name, value] of c.cookies) copy.cookies.set(name, value);
    copy.csrfToken = c.csrfToken;
    return copy;
  });
}

const statuses = (responses: { statusCode: number }[]) => responses.map((r) => r.statusCode).sort();

async function countEvents(accountId: number, action: string): Promise<number> {
  const rows = await t.db.db
    .select({ id: schema.auditEvents.id })
    .from(schema.auditEvents)
    .where(and(eq(schema.auditEvents.accountId, accountId), eq(schema.auditEvents.action, action)));
  return rows.length;
}

describe('second factors under bursts', () => {
  it(`one TOTP code sent ${BURST} times at once is accepted once`, async () => {
    const owner = await newOwner(t.app);
    const { secret } = await enrolTotp(owner.c, t.clock);
    nextStep(t.clock);
    const code = codeAt(secret, t.clock);
    const responses = await Promise.all(
      sameBrowserFrom(owner.c, BURST).map((c) => c.post('/api/auth/step-up', { method: 'totp', code })),
    );
    expect(statuses(responses)).toEqual([200, ...Array<number>(BURST - 1).fill(400)]);
    expect(await countEvents(owner.accountId, 'auth.step_up')).toBe(1);
  });

  it(`one recovery code sent ${BURST} times at once is used once`, async () => {
    const owner = await newOwner(t.app);
    const { recoveryCodes } = await enrolTotp(owner.c, t.clock);
    const code = recoveryCodes[3] ?? '';
    const responses = await Promise.all(
      sameBrowserFrom(owner.c, BURST).map((c) =>
        c.post('/api/auth/step-up', { method: 'recovery_code', code }),
      ),
    );
    expect(statuses(responses)).toEqual([200, ...Array<number>(BURST - 1).fill(400)]);
    const unused = await t.db.db
      .select({ id: schema.recoveryCodes.id })
      .from(schema.recoveryCodes)
      .where(and(eq(schema.recoveryCodes.userId, owner.userId), isNull(schema.recoveryCodes.usedAt)));
    expect(unused).toHaveLength(9);
    expect(await countEvents(owner.accountId, 'auth.recovery_code_used')).toBe(1);
  });

  it(`a pending sign-in finished ${BURST} times at once with the right code makes one session`, async () => {
    const owner = await newOwner(t.app);
    const { secret } = await enrolTotp(owner.c, t.clock);
    nextStep(t.clock);
    const browser = new TestClient(t.app, nextIp());
    const first = await browser.login(owner.email, owner.password);
    expect(first.json()).toMatchObject({ mfaRequired: true });
    const sessionsBefore = await t.db.db
      .select({ id: schema.sessions.idHash })
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, owner.userId));
    const code = codeAt(secret, t.clock);
    const responses = await Promise.all(
      sameBrowserFrom(browser, BURST).map((c) => c.post('/api/auth/login/mfa', { method: 'totp', code })),
    );
    expect(statuses(responses).filter((s) => s === 200)).toHaveLength(1);
    expect(statuses(responses).filter((s) => s !== 200 && s !== 400)).toEqual([]);
    const sessionsAfter = await t.db.db
      .select({ id: schema.sessions.idHash })
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, owner.userId));
    expect(sessionsAfter.length - sessionsBefore.length).toBe(1);
    expect(await countEvents(owner.accountId, 'auth.login_succeeded')).toBe(1);
  });

  it(`${BURST} wrong codes at once from one address: at most ${LOGIN_FAILURE_LIMITS.perAddressAndIp} are checked, the rest 429`, async () => {
    const owner = await newOwner(t.app);
    const { secret } = await enrolTotp(owner.c, t.clock);
    nextStep(t.clock);
    const wrong = codeAt(secret, t.clock, 7);
    const responses = await Promise.all(
      Array.from({ length: BURST }, () => owner.c.post('/api/auth/step-up', { method: 'totp', code: wrong })),
    );
    const codes = statuses(responses);
    expect(codes.filter((s) => s === 400).length).toBeLessThanOrEqual(LOGIN_FAILURE_LIMITS.perAddressAndIp);
    expect(codes.filter((s) => s === 429).length).toBeGreaterThanOrEqual(
      BURST - LOGIN_FAILURE_LIMITS.perAddressAndIp,
    );
    expect(codes.every((s) => s === 400 || s === 429)).toBe(true);
    expect(await countEvents(owner.accountId, 'auth.mfa_failed')).toBeLessThanOrEqual(
      LOGIN_FAILURE_LIMITS.perAddressAndIp,
    );
  });

  it(`${BURST} wrong codes at once on a pending sign-in: at most ${LOGIN_FAILURE_LIMITS.perAddressAndIp} checked, and it stays pending`, async () => {
    const owner = await newOwner(t.app);
    const { secret } = await enrolTotp(owner.c, t.clock);
    nextStep(t.clock);
    const browser = new TestClient(t.app, nextIp());
    await browser.login(owner.email, owner.password);
    const wrong = codeAt(secret, t.clock, 7);
    const responses = await Promise.all(
      Array.from({ length: BURST }, () =>
        browser.post('/api/auth/login/mfa', { method: 'totp', code: wrong }),
      ),
    );
    const codes = statuses(responses);
    expect(codes.filter((s) => s === 400).length).toBeLessThanOrEqual(LOGIN_FAILURE_LIMITS.perAddressAndIp);
    expect(codes.filter((s) => s === 429).length).toBeGreaterThanOrEqual(
      BURST - LOGIN_FAILURE_LIMITS.perAddressAndIp,
    );
    // From another network, the right code still finishes it (the pending sign-in was kept).
    const [elsewhere] = sameBrowserFrom(browser, 1);
    if (!elsewhere) throw new Error('no client');
    const right = await elsewhere.post('/api/auth/login/mfa', {
      method: 'totp',
      code: codeAt(secret, t.clock),
    });
    expect(right.statusCode).toBe(200);
  });
});
