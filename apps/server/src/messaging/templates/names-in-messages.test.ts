import { singleLineTexts } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { composeCodeEmail, composeCodeSms } from '../../modules/attempts/index.ts';
import { useTestApp } from '../../test-support/app.ts';
import { newSignup, TestClient } from '../../test-support/client.ts';
import { outboxFor } from '../../test-support/outbox.ts';
import { invite, newOwner, newPerson, nextIp } from '../../test-support/teams.ts';

const t = useTestApp();

/** What an attacker would like our message to say on a line of its own. */
const INJECTED = 'Your account is locked: call +1 900 555 0100';
const NAMES_WITH_BREAKS = [
  `Ann\r\n\r\n${INJECTED}`,
  `Ann\n${INJECTED}`,
  `Ann\r${INJECTED}`,
  `Ann\u2028${INJECTED}`,
  `Ann\u0085${INJECTED}`,
  `Ann\u000b${INJECTED}`,
];
const refused = (field: string) => ({
  [field]: [singleLineTexts.controlCharacters],
  MainCode_: 'validation_error',
});

/** No line of the message is the attacker's: the name stays inside our sentence, on its line. */
function expectNoInjectedLine(text: string) {
  for (const line of text.split(/[\p{Cc}\p{Zl}\p{Zp}]+/u))
    expect(line.startsWith(INJECTED), JSON.stringify(line)).toBe(false);
  expect(text).toContain(`Ann ${INJECTED}`);
}

describe('names with line breaks or control characters are refused (contracts)', () => {
  it('sign-up, profile name, company name, form name and rename: 400 on the field', async () => {
    for (const name of NAMES_WITH_BREAKS) {
      const signup = new TestClient(t.app, nextIp());
      await signup.fetchCsrf();
      const first = await signup.post('/api/auth/signup', newSignup({ firstName: name }));
      expect(first.statusCode).toBe(400);
      expect(first.json()).toEqual(refused('firstName'));
      const last = await signup.post('/api/auth/signup', newSignup({ lastName: name }));
      expect(last.json()).toEqual(refused('lastName'));
    }

    const owner = await newOwner(t.app, 'Acme');
    const form = await owner.c.post('/api/verify-forms', { name: 'Checkout', account: owner.accountId });
    expect(form.statusCode).toBe(201);
    const formId = form.json<{ id: number }>().id;
    for (const name of NAMES_WITH_BREAKS) {
      const profile = await owner.c.patch(`/api/users/${owner.userId}`, { name });
      expect(profile.statusCode).toBe(400);
      expect(profile.json()).toEqual(refused('name'));
      const company = await owner.c.post('/api/accounts', { displayName: name });
      expect(company.json()).toEqual(refused('displayName'));
      const rename = await owner.c.patch(`/api/accounts/${owner.accountId}`, { displayName: name });
      expect(rename.json()).toEqual(refused('displayName'));
      const newForm = await owner.c.post('/api/verify-forms', { name, account: owner.accountId });
      expect(newForm.json()).toEqual(refused('name'));
      const formRename = await owner.c.patch(`/api/verify-forms/${formId}`, { name });
      expect(formRename.json()).toEqual(refused('name'));
    }
    const [user] = await t.db.db.select().from(schema.users).where(eq(schema.users.id, owner.userId));
    expect(user?.name).toBe('Ada Lovelace');
  });

  it('a trailing newline (a paste) is trimmed, not refused', async () => {
    const person = await newPerson(t.app);
    const response = await person.c.patch(`/api/users/${person.userId}`, { name: 'Ann Lee\r\n' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'Ann Lee' });
  });
});

describe('names already stored with line breaks cannot add lines to an e-mail (templates)', () => {
  it('an invitation: inviter and company on their line, subject on one line', async () => {
    const owner = await newOwner(t.app, 'Acme');
    await t.db.db
      .update(schema.users)
      .set({ name: `Ann\r\n\r\n${INJECTED}` })
      .where(eq(schema.users.id, owner.userId));
    await t.db.db
      .update(schema.accounts)
      .set({ displayName: `Ann\n${INJECTED}` })
      .where(eq(schema.accounts.id, owner.accountId));
    const to = newSignup().email;
    expect((await invite(owner, owner.accountId, to)).statusCode).toBe(201);
    const [message] = await outboxFor(t.app, to);
    expect(message).toBeDefined();
    expectNoInjectedLine(message?.text ?? '');
    expect(message?.subject).toBe(`You are invited to join Ann ${INJECTED} on Veriform`);
  });

  it('a reset-password e-mail: the greeting stays one line', async () => {
    const person = await newPerson(t.app);
    await t.db.db
      .update(schema.users)
      .set({ name: `Ann\u2028${INJECTED}\r\n` })
      .where(eq(schema.users.id, person.userId));
    const stranger = new TestClient(t.app, nextIp());
    await stranger.fetchCsrf();
    const response = await stranger.post('/api/auth/reset-password', { email: person.email });
    expect(response.statusCode).toBe(200);
    const [message] = await outboxFor(t.app, person.email);
    expect(message?.subject).toBe('Reset your Veriform password');
    expectNoInjectedLine(message?.text ?? '');
    expect(message?.text.split('\n')[0]).toBe(`Hi Ann ${INJECTED},`);
  });

  it('the verification code by e-mail and SMS: the company name on its line', () => {
    const company = `Ann\r\n\r\n${INJECTED}`;
    const email = composeCodeEmail({
      to: 'x@example.com',
      language: 'en',
      company,
      code: '123456',
      publicUrl: 'https://veriform.example',
      publicId: 'AbCdEfGhIjKlMnOp',
    });
    expectNoInjectedLine(email.text);
    expect(email.subject).not.toMatch(/[\r\n]/);
    const sms = composeCodeSms({
      language: 'es',
      company,
      code: '123456',
      publicUrl: 'https://veriform.example',
    });
    expectNoInjectedLine(sms);
  });
});
