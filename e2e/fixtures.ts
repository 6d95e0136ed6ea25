import { randomBytes } from 'node:crypto';
import { type APIRequestContext, test as base, expect } from '@playwright/test';

/** Each test makes its own people: unique e-mail addresses, so tests never share or depend on leftover data. */
export type NewUser = { firstName: string; lastName: string; email: string; password: string };

export function newUser(): NewUser {
  const id = randomBytes(5).toString('hex');
  return {
    firstName: 'Ada',
    lastName: `Tester ${id}`,
    email: `e2e-${id}@example.test`,
    password: 'correct horse 9!',
  };
}

type OutboxMessage = { id: number; to: string; subject: string | null; text: string };

/**
 * Waits for the newest e-mail to `to` in the development outbox (the app's, read through its dev API), optionally the
 * newest one that `matches` (say, by subject).
 */
export async function latestEmailTo(
  request: APIRequestContext,
  to: string,
  matches: (message: OutboxMessage) => boolean = () => true,
): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
        const body = (await res.json()) as { results: OutboxMessage[] };
        found = body.results.find((m) => m.to === to && matches(m));
        return Boolean(found);
      },
      { message: `an e-mail to ${to} in the outbox`, timeout: 10_000 },
    )
    .toBe(true);
  if (!found) throw new Error('unreachable');
  return found;
}

/**
 * A signed-up, verified and logged-in user, made through the same API calls the pages make, sharing the page's cookies.
 * Journeys that are not about signing up start from here.
 */
export async function signUpVerified(
  request: APIRequestContext,
  user: NewUser = newUser(),
): Promise<NewUser> {
  const csrf = (await (await request.post('/api/auth/csrf')).json()) as { csrfToken: string };
  const signup = await request.post('/api/auth/signup', {
    headers: { 'X-CSRFToken': csrf.csrfToken },
    data: { ...user, passwordConfirm: user.password },
  });
  expect(signup.status(), await signup.text()).toBe(200);
  const { csrfToken } = (await signup.json()) as { csrfToken: string };
  const mail = await latestEmailTo(request, user.email);
  const [, uidb64, token] =
    linkIn(mail.text, '/auth/verify-email/confirm/').match(/confirm\/([^/]+)\/([^/]+)/) ?? [];
  const confirm = await request.post('/api/auth/verify-email/confirm', {
    headers: { 'X-CSRFToken': csrfToken },
    data: { uidb64, token },
  });
  expect(confirm.status(), await confirm.text()).toBe(200);
  return user;
}

async function csrfToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/auth/csrf');
  return ((await res.json()) as { csrfToken: string }).csrfToken;
}

/** Creates a company for the logged-in user of `request` (they become its owner); answers the new membership. */
export async function createCompany(
  request: APIRequestContext,
  displayName: string,
): Promise<{ id: number; account: { id: number; displayName: string } }> {
  const res = await request.post('/api/accounts', {
    headers: { 'X-CSRFToken': await csrfToken(request) },
    data: { displayName },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { membership: { id: number; account: { id: number; displayName: string } } })
    .membership;
}

/** A verified user who owns a company: where most journeys start. */
export async function signUpOwner(
  request: APIRequestContext,
  user: NewUser = newUser(),
): Promise<NewUser & { company: string }> {
  await signUpVerified(request, user);
  const company = `Acme ${user.lastName}`;
  await createCompany(request, company);
  return { ...user, company };
}

export function linkIn(text: string, pathPart: string): string {
  const match = text.match(new RegExp(`https?://\\S*${pathPart}\\S*`));
  if (!match) throw new Error(`no link containing ${pathPart} in: ${text}`);
  return match[0];
}

/** A documentation-range address (RFC 5737), unique enough per test. */
function clientAddress(): string {
  const [a, b] = randomBytes(2);
  return `198.51.${a}.${b}`;
}

export const test = base.extend<{ user: NewUser }>({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, 'X-Forwarded-For': clientAddress() });
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring.
  user: async ({}, use) => {
    await use(newUser());
  },
});
export { expect };
