import { randomBytes } from 'node:crypto';
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';
import { tokenLinkPages } from '@veriform/contracts/page-paths';
import { Secret, TOTP } from 'otpauth';

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
    linkIn(mail.text, tokenLinkPages['verify-email']).match(/confirm\/([^/]+)\/([^/]+)/) ?? [];
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

/** A documentation-range address (RFC 5737), unique enough per test (or per browser context of one). */
export function clientAddress(): string {
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

// ---- Verifications made through the real app (activity log, dashboard) ------------------------------------------

export type CreatedForm = { id: number; publicId: string; publicUrl: string; name: string; category: string };

/** A live form of `account`, made through the API as the owner logged in on `request`. */
export async function createLiveForm(
  request: APIRequestContext,
  form: { account: number; name: string; category?: string; language?: 'en' | 'es' },
): Promise<CreatedForm> {
  const headers = { 'X-CSRFToken': await csrfToken(request) };
  const created = await request.post('/api/verify-forms', { headers, data: form });
  expect(created.status(), await created.text()).toBe(201);
  const body = (await created.json()) as CreatedForm;
  const live = await request.patch(`/api/verify-forms/${body.id}`, { headers, data: { isLive: true } });
  expect(live.status(), await live.text()).toBe(200);
  return body;
}

export type VerificationSpec = {
  /** The form's public id (`CreatedForm.publicId`). */
  publicId: string;
  externalRefId?: string;
  method?: 'sms' | 'email';
  /** Required by the server when method is email; a unique address is made when omitted. */
  email?: string;
};
export type CreatedVerification = {
  verificationId: number;
  /** E.164. */
  cellPhone: string;
  publicId: string;
  externalRefId: string;
  method: 'sms' | 'email';
};

// Fictional NANP lines (555-0100…0199) in a few area codes: plenty of distinct test numbers per account.
const TEST_AREA_CODES = ['415', '212', '646', '310', '617', '312', '206', '305'];
function randomTestNumber(): string {
  const [a = 0, b = 0] = randomBytes(2);
  const area = TEST_AREA_CODES[a % TEST_AREA_CODES.length];
  return `+1${area}55501${String(b % 100).padStart(2, '0')}`;
}

/** A fresh real US mobile number (area code 415, exchanges 200–899 parse as mobile): a live verification's. */
function randomLiveNumber(): string {
  const [a = 0, b = 0, c = 0] = randomBytes(3);
  return `+1415${200 + (a % 700)}${String(((b << 8) | c) % 10_000).padStart(4, '0')}`;
}

/** The CSRF token a consumer's page carries (the public page's initial data). */
async function publicPageCsrf(request: APIRequestContext, publicId: string): Promise<string> {
  const page = await request.get(`/f/${publicId}`);
  expect(page.status(), `GET /f/${publicId}`).toBe(200);
  const json = (await page.text()).match(
    /<script id="initial-data" type="application\/json">([^<]*)<\/script>/,
  )?.[1];
  if (!json) throw new Error(`no initial data on /f/${publicId}`);
  return (JSON.parse(json) as { csrfToken: string }).csrfToken;
}

/**
 * Real verifications for `account`, one per spec, made as consumers do, from its own client address, by the public API
 * (`/f/{publicId}`'s CSRF token, send-code, check). Distinct numbers per verification keep the 30 s resend spacing
 * (per form and number) out of the way. Made one after another, so `created` follows the order of `specs`.
 *
 * `mode: 'live'` (the default): a fresh real number, its code read from the development outbox: live data, what the
 * activity log shows by default. `mode: 'test'`: a fresh test number of the account (added by the owner logged in on
 * `request`; test numbers send nothing and verify with their fixed code): test data (`isTest`), which the activity
 * log shows only with `mode=test` (issue #33).
 */
export async function createVerifications(
  request: APIRequestContext,
  {
    account,
    specs,
    mode = 'live',
  }: { account: number; specs: readonly VerificationSpec[]; mode?: 'live' | 'test' },
): Promise<CreatedVerification[]> {
  const ownerHeaders = { 'X-CSRFToken': await csrfToken(request) };
  const csrfByForm = new Map<string, string>();
  const made: CreatedVerification[] = [];
  for (const spec of specs) {
    let code = String(100_000 + (randomBytes(3).readUIntBE(0, 3) % 900_000));
    let cellPhone = mode === 'live' ? randomLiveNumber() : '';
    for (let tries = 0; tries < 20 && !cellPhone; tries++) {
      const candidate = randomTestNumber();
      const added = await request.post('/api/test-phone-numbers', {
        headers: ownerHeaders,
        data: { account, cellPhone: candidate, code },
      });
      if (added.status() === 201) cellPhone = ((await added.json()) as { cellPhone: string }).cellPhone;
      else expect(added.status(), await added.text()).toBe(400); // already a test number: draw another
    }
    if (!cellPhone) throw new Error('no free test number');

    let csrf = csrfByForm.get(spec.publicId);
    if (!csrf) {
      csrf = await publicPageCsrf(request, spec.publicId);
      csrfByForm.set(spec.publicId, csrf);
    }
    const method = spec.method ?? 'sms';
    const consumerHeaders = { 'X-CSRFToken': csrf, 'X-Forwarded-For': clientAddress() };
    const sentTo =
      method === 'email'
        ? (spec.email ?? `consumer-${randomBytes(4).toString('hex')}@example.test`)
        : undefined;
    const sent = await request.post(`/api/public/verify-forms/${spec.publicId}/send-code`, {
      headers: consumerHeaders,
      data: { cellPhone, method, email: sentTo, externalRefId: spec.externalRefId },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    const { attemptId } = (await sent.json()) as { attemptId: string };
    if (mode === 'live') {
      const message = await latestEmailTo(request, method === 'email' ? (sentTo ?? '') : cellPhone);
      code = message.text.match(/\b(\d{6})\b/)?.[1] ?? '';
    }
    const checked = await request.post(`/api/public/attempts/${attemptId}/check`, {
      headers: consumerHeaders,
      data: { code },
    });
    expect(checked.status(), await checked.text()).toBe(200);
    const { verificationId } = (await checked.json()) as { verificationId: number };
    made.push({
      verificationId,
      cellPhone,
      publicId: spec.publicId,
      externalRefId: spec.externalRefId ?? '',
      method,
    });
  }
  return made;
}

// ---- Second factors (issue #38) ------------------------------------------------------------------------------------

/**
 * Chromium's virtual WebAuthn authenticator on `page` (DevTools protocol): a platform authenticator with discoverable
 * credentials that verifies its user at once, as a laptop's fingerprint reader would. It lives as long as the page.
 */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/**
 * An authenticator app in the test: the codes of the key the page shows as text (spaces between groups). The server
 * takes each time step once, and also the step after its own (an app whose clock runs ahead: `TOTP_WINDOW`), so
 * `next()` gives the current step's code, then the next step's at once (instead of waiting up to 30 s for the step to
 * turn), and waits only for a third code within one step.
 */
export function authenticatorApp(keyText: string) {
  const secret = Secret.fromBase32(keyText.replace(/\s+/g, ''));
  let lastStep = -1;
  return {
    async next(): Promise<string> {
      while (lastStep + 1 > TOTP.counter() + 1) await new Promise((resolve) => setTimeout(resolve, 500));
      lastStep = Math.max(TOTP.counter(), lastStep + 1);
      return TOTP.generate({ secret, timestamp: lastStep * 30_000 });
    },
  };
}

/** `member` signs up (verified) on `memberRequest` and joins the account of the owner signed in on `ownerRequest`. */
export async function joinAccount(
  ownerRequest: APIRequestContext,
  memberRequest: APIRequestContext,
  member: NewUser,
  accountId: number,
  role: 'member' | 'owner' = 'member',
): Promise<void> {
  const invited = await ownerRequest.post('/api/invitations', {
    headers: { 'X-CSRFToken': await csrfToken(ownerRequest) },
    data: { accountId, email: member.email, role },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const key = (await latestEmailTo(ownerRequest, member.email)).text.match(/[?&]key=([^\s&]+)/)?.[1];
  if (!key) throw new Error('no invitation key in the e-mail');
  await signUpVerified(memberRequest, member);
  const accepted = await memberRequest.post('/api/invitations/accept', {
    headers: { 'X-CSRFToken': await csrfToken(memberRequest) },
    data: { key: decodeURIComponent(key) },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
}
