import { SSO_CALLBACK_PATH } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { TEST_PUBLIC_URL, useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { startOidcProvider, type TestOidcProvider } from '../../test-support/oidc-provider.ts';
import { newOwner, nextIp } from '../../test-support/teams.ts';

const { accountDomains, auditEvents, memberships, sessions, ssoIdentities, users } = schema;

let provider: TestOidcProvider;
const t = useTestApp(async () => {
  provider = await startOidcProvider({ redirectUri: `${TEST_PUBLIC_URL}${SSO_CALLBACK_PATH}` });
  return { env: { DOMAIN_PROOF_ALLOW_HTTP: 'true' } };
});
afterAll(() => provider?.close());

// The state is taken once (a DELETE … RETURNING of its row): of 20 callbacks with one state at once, one signs in.
it('a state replayed in a burst of 20 callbacks at once makes one person, one membership, one session', async () => {
  const owner = await newOwner(t.app);
  const domain = `burst-${Date.now()}.example`;
  const now = t.clock.now();
  await t.db.db.insert(accountDomains).values({
    accountId: owner.accountId,
    domain,
    token: 'vf-burst',
    verifiedAt: now,
    verifiedBy: 'dns',
    createdAt: now,
  });
  const saved = await owner.c.request({
    method: 'PUT',
    url: `/api/accounts/${owner.accountId}/sso`,
    body: {
      domain,
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      defaultRole: 'member',
      required: false,
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);

  const email = `burst@${domain}`;
  const browser = new TestClient(t.app, nextIp());
  const started = await browser.get(`/auth/sso/start?email=${encodeURIComponent(email)}`);
  expect(started.statusCode).toBe(303);
  const back = await provider.signIn(String(started.headers.location), email);

  const answers = await Promise.all(
    Array.from({ length: 20 }, () => new TestClient(t.app, nextIp()).get(`${back.pathname}${back.search}`)),
  );
  const locations = answers.map((answer) => answer.headers.location);
  expect(locations.filter((location) => location === '/')).toHaveLength(1);
  expect(locations.filter((location) => location === '/auth/login?sso_error=expired')).toHaveLength(19);

  const found = await t.db.db.select().from(users).where(eq(users.email, email));
  expect(found).toHaveLength(1);
  const userId = found[0]?.id ?? 0;
  expect(await t.db.db.select().from(sessions).where(eq(sessions.userId, userId))).toHaveLength(1);
  expect(await t.db.db.select().from(memberships).where(eq(memberships.userId, userId))).toHaveLength(1);
  expect(await t.db.db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, userId))).toHaveLength(1);
  const logins = await t.db.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.accountId, owner.accountId), eq(auditEvents.action, 'auth.sso_login')));
  expect(logins).toHaveLength(1);
});
