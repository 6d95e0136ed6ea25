import { createHash } from 'node:crypto';
import type {
  AuditEvent,
  AuditEventList,
  ConsentVersion,
  ConsentVersionList,
  VerifyForm,
} from '@veriform/contracts';
import { CONSENT_TEXT_MAX, consentTexts } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';

/**
 * Issue #18 items 1: a form's consent versions through the API — numbered per language, the hash of the exact text,
 * never edited or removed, and numbered one after another however many publish at once.
 */

const t = useTestApp();

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const url = (form: VerifyForm) => `/api/verify-forms/${form.id}/consent-versions`;

async function publish(
  owner: { c: Owner['c'] },
  form: VerifyForm,
  body: { language: 'en' | 'es'; text: string; requireCheckbox: boolean },
): Promise<ConsentVersion> {
  const response = await owner.c.post(url(form), body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ConsentVersion>();
}

async function versionsOf(owner: Owner, form: VerifyForm, query = ''): Promise<ConsentVersion[]> {
  const response = await owner.c.get(`${url(form)}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ConsentVersionList>().results;
}

describe('POST /api/verify-forms/{id}/consent-versions', () => {
  it('publishes v1, v2 per language with the SHA-256 of the exact text; lists newest first, by language on demand', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const text =
      'By entering your number you agree that Acme may text you. Terms: https://acme.example/terms.\nÑandú ✓';
    const v1 = await publish(owner, form, { language: 'en', text, requireCheckbox: true });
    expect(v1).toEqual({
      id: expect.stringMatching(/^cv_[A-Za-z0-9_-]{22}$/),
      version: 1,
      language: 'en',
      text,
      sha256: sha256(text),
      requireCheckbox: true,
      created: expect.any(String),
      createdBy: owner.email,
    });
    t.clock.advance(1000);
    const es1 = await publish(owner, form, { language: 'es', text: 'Acepto.', requireCheckbox: false });
    t.clock.advance(1000);
    expect(es1.version).toBe(1);
    // A changed checkbox alone is a new version too: it is part of what the consumer was shown.
    const v2 = await publish(owner, form, { language: 'en', text, requireCheckbox: false });
    expect(v2).toMatchObject({ version: 2, sha256: v1.sha256, requireCheckbox: false });

    expect((await versionsOf(owner, form)).map((v) => [v.language, v.version])).toEqual([
      ['en', 2],
      ['es', 1],
      ['en', 1],
    ]);
    expect((await versionsOf(owner, form, '?language=en')).map((v) => v.id)).toEqual([v2.id, v1.id]);
    expect(await versionsOf(owner, form, '?language=es')).toEqual([es1]);
  });

  it('stores the text as the page shows it: line ends made \\n, trailing spaces and blank edges dropped', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const v1 = await publish(owner, form, {
      language: 'en',
      text: '\r\n  First line.   \r\nSecond line.\t\r\n\r\n',
      requireCheckbox: false,
    });
    expect(v1.text).toBe('  First line.\nSecond line.');
    expect(v1.sha256).toBe(sha256('  First line.\nSecond line.'));
  });

  it('the current text again publishes nothing: 200 with the current version, no new number, no audit event', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const v1 = await publish(owner, form, { language: 'en', text: 'Same words.', requireCheckbox: true });
    const again = await owner.c.post(url(form), {
      language: 'en',
      text: 'Same words.\r\n',
      requireCheckbox: true,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<ConsentVersion>()).toEqual(v1);
    expect(await versionsOf(owner, form)).toEqual([v1]);

    const audit = await owner.c.get(
      `/api/audit-events?account=${owner.accountId}&action=verify_form.consent_published`,
    );
    const events = audit.json<AuditEventList>().results;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject<Partial<AuditEvent>>({
      action: 'verify_form.consent_published',
      actor: { type: 'user', id: String(owner.userId), name: owner.email },
      targets: [{ type: 'form', id: String(form.id), name: form.name }],
      changes: {
        language: 'en',
        version: [null, 1],
        sha256: [null, v1.sha256],
        requireCheckbox: [null, true],
      },
    });
  });

  it('refuses an empty or too long text, control characters and an unknown language (400 on the field)', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const refused = async (body: unknown, field: string, message?: string) => {
      const response = await owner.c.post(url(form), body);
      expect(response.statusCode, response.body).toBe(400);
      const answer = response.json<Record<string, unknown>>();
      expect(answer.MainCode_).toBe('validation_error');
      expect(answer[field], response.body).toBeDefined();
      if (message) expect(answer[field]).toEqual([message]);
    };
    await refused(
      { language: 'en', text: ' \n ', requireCheckbox: false },
      'text',
      consentTexts.textRequired,
    );
    await refused(
      { language: 'en', text: 'a'.repeat(CONSENT_TEXT_MAX + 1), requireCheckbox: false },
      'text',
      consentTexts.textTooLong,
    );
    await refused(
      { language: 'en', text: 'a\u0007b', requireCheckbox: false },
      'text',
      consentTexts.controlCharacters,
    );
    await refused({ language: 'fr', text: 'Oui.', requireCheckbox: false }, 'language');
    expect(await versionsOf(owner, form)).toEqual([]);
    // The longest text passes.
    await publish(owner, form, {
      language: 'en',
      text: 'a'.repeat(CONSENT_TEXT_MAX),
      requireCheckbox: false,
    });
  });

  it('concurrent publishes of one form get distinct, consecutive numbers (and the same text at once, one version)', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        owner.c.post(url(form), { language: 'en', text: `Text number ${i}.`, requireCheckbox: i % 2 === 0 }),
      ),
    );
    expect(burst.map((r) => r.statusCode)).toEqual(Array(12).fill(201));
    const numbers = burst.map((r) => r.json<ConsentVersion>().version).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));

    const other = await createPublicForm(owner);
    const same = await Promise.all(
      Array.from({ length: 8 }, () =>
        owner.c.post(url(other), { language: 'es', text: 'Igual.', requireCheckbox: true }),
      ),
    );
    expect(same.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(same.map((r) => r.json<ConsentVersion>().id)).size).toBe(1);
    expect(await versionsOf(owner, other)).toHaveLength(1);
  });
});

describe('no edit, no removal, and only the form’s account', () => {
  it('PATCH and DELETE of a version or the list are not routes (404); the version is unchanged', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const v1 = await publish(owner, form, { language: 'en', text: 'Original.', requireCheckbox: false });
    for (const target of [`${url(form)}/${v1.id}`, url(form)]) {
      for (const method of ['PATCH', 'DELETE', 'PUT'] as const) {
        const response = await owner.c.request({ method, url: target, body: { text: 'Changed.' } });
        expect([404, 405], `${method} ${target}`).toContain(response.statusCode);
      }
    }
    expect(await versionsOf(owner, form)).toEqual([v1]);
  });

  it('another account’s form answers 404 to both routes and gets no version; a member publishes', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const stranger = await newOwner(t.app);
    const post = await stranger.c.post(url(form), {
      language: 'en',
      text: 'Planted.',
      requireCheckbox: false,
    });
    expect(post.statusCode).toBe(404);
    expect((await stranger.c.get(url(form))).statusCode).toBe(404);
    expect((await stranger.c.get('/api/verify-forms/999999999/consent-versions')).statusCode).toBe(404);
    expect(await versionsOf(owner, form)).toEqual([]);

    const member = await join(t.app, owner);
    const byMember = await publish(member, form, {
      language: 'en',
      text: 'From a member.',
      requireCheckbox: true,
    });
    expect(byMember.createdBy).toBe(member.email);
  });
});
