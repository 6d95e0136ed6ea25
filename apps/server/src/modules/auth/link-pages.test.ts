import {
  type InitialExtra,
  parseTokenLinkPath,
  type TokenLinkKind,
  tokenLinkKinds,
  tokenLinkPages,
} from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../lib/redact.ts';
import { TEST_PUBLIC_URL, useTestApp } from '../../test-support/app.ts';
import { newSignup, TestClient } from '../../test-support/client.ts';
import { initialDataOf, latestLink } from '../../test-support/outbox.ts';

/**
 * The token links the server e-mails, the pages it recognises when serving them and the redaction of logged URLs
 * agree, for every kind of link in contracts' tokenLinkPages (the web app's routes are held to the same paths in
 * apps/web/src/routes/link-pages.test.tsx).
 */

const t = useTestApp();
let nextIp = 1;
const client = () => new TestClient(t.app, `10.9.0.${nextIp++}`);

const extraField: Record<TokenLinkKind, keyof InitialExtra> = {
  'verify-email': 'verifyEmailConfirm',
  'reset-password': 'resetPasswordConfirm',
  'change-email': 'changeEmailConfirm',
  'change-email-cancel': 'changeEmailCancel',
};

/** A fresh user with every kind of link in their (old or new) mailbox; answers where to read each. */
async function userWithEveryLink(): Promise<Record<TokenLinkKind, string>> {
  const c = client();
  const { payload } = await c.signupNew();
  const toEmail = `moved-${Date.now()}-${nextIp}@example.org`;
  expect(
    (await c.post('/api/auth/change-email/request', { toEmail, password: newSignup().password })).statusCode,
  ).toBe(200);
  const anonymous = client();
  await anonymous.fetchCsrf();
  expect((await anonymous.post('/api/auth/reset-password', { email: payload.email })).statusCode).toBe(200);
  return {
    'verify-email': payload.email,
    'reset-password': payload.email,
    'change-email': toEmail,
    'change-email-cancel': payload.email,
  };
}

describe('token link pages (contracts) as the server builds, serves and logs them', () => {
  it('every e-mailed link is PUBLIC_URL + its page, recognised with its secret kept out of Referer and log', async () => {
    const mailboxes = await userWithEveryLink();
    for (const kind of tokenLinkKinds) {
      const link = await latestLink(t.app, mailboxes[kind], kind);
      expect(link.url).toBe(`${TEST_PUBLIC_URL}${link.path}`);
      expect(link.path.startsWith(tokenLinkPages[kind])).toBe(true);
      expect(parseTokenLinkPath(kind, link.path)).toEqual({ uidb64: link.uidb64, token: link.token });

      const page = await client().get(link.path);
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(initialDataOf(page.body)).toMatchObject({ extra: { [extraField[kind]]: { isValid: true } } });

      expect(redactUrl(link.url)).toBe(`${TEST_PUBLIC_URL}${tokenLinkPages[kind]}${link.uidb64}/[redacted]/`);
    }
  });

  it("a token is good only on its own kind's page", async () => {
    const mailboxes = await userWithEveryLink();
    for (const kind of tokenLinkKinds) {
      const link = await latestLink(t.app, mailboxes[kind], kind);
      for (const other of tokenLinkKinds.filter((candidate) => candidate !== kind)) {
        const page = await client().get(`${tokenLinkPages[other]}${link.uidb64}/${link.token}/`);
        expect(initialDataOf(page.body)).toMatchObject({
          extra: { [extraField[other]]: { isValid: false } },
        });
      }
    }
  });
});
