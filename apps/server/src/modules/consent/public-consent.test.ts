import { createHash } from 'node:crypto';
import { type ConsentVersion, publicVerifyTexts, type VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { latestCodeTo } from '../../test-support/codes.ts';
import {
  createPublicForm,
  newCellPhone,
  newConsumer,
  verifyPhone,
} from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';

/**
 * Issue #18 items 2–3 at the public page: the current version of the form's language is shown, send-code takes it
 * back with the tick, a stale version or a missing tick is refused in the page's language, and the attempt and the
 * verification keep the version, language and hash they were made under.
 */

const t = useTestApp();

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

async function publish(
  owner: Owner,
  form: VerifyForm,
  body: { language: 'en' | 'es'; text: string; requireCheckbox: boolean },
): Promise<ConsentVersion> {
  const response = await owner.c.post(`/api/verify-forms/${form.id}/consent-versions`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ConsentVersion>();
}

const attemptOf = async (id: string) =>
  (await t.db.db.select().from(schema.verificationAttempts).where(eq(schema.verificationAttempts.id, id)))[0];
const verificationOf = async (id: number) =>
  (await t.db.db.select().from(schema.verifications).where(eq(schema.verifications.id, id)))[0];

describe('the public page and send-code', () => {
  it('the page carries the current version of the form’s language only; none → null', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner, { language: 'es' });
    const consumer = await newConsumer(t.app, form.publicId);
    expect(consumer.shownConsent).toBeNull();

    await publish(owner, form, { language: 'en', text: 'English terms.', requireCheckbox: true });
    expect((await consumer.open(form.publicId)).data.form?.consent).toBeNull();
    await publish(owner, form, { language: 'es', text: 'Términos v1.', requireCheckbox: false });
    const es2 = await publish(owner, form, { language: 'es', text: 'Términos v2.', requireCheckbox: true });
    const { data } = await consumer.open(form.publicId);
    expect(data.form?.consent).toEqual({ versionId: es2.id, text: 'Términos v2.', requireCheckbox: true });
    const api = await consumer.get(`/api/public/verify-forms/${form.publicId}`);
    expect(api.json().consent).toEqual(data.form?.consent);
  });

  it('a missing tick is refused in Spanish on a Spanish form, a stale or absent version id too; nothing is sent', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner, { language: 'es' });
    const v1 = await publish(owner, form, {
      language: 'es',
      text: 'Acepto que me llamen.',
      requireCheckbox: true,
    });
    const consumer = await newConsumer(t.app, form.publicId);
    const es = publicVerifyTexts.es;
    const phone = newCellPhone();
    const send = (extra: object) =>
      consumer.sendCode(form.publicId, { cellPhone: phone.typed, method: 'sms', ...extra });

    for (const unticked of [
      { consentVersionId: v1.id },
      { consentVersionId: v1.id, consentAccepted: false },
    ]) {
      const refused = await send(unticked);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        consentAccepted: [es.consentRequired],
        MainCode_: 'validation_error',
      });
    }
    // A page that showed no version, or one loaded before v2 was published.
    const absent = await send({ consentAccepted: true });
    expect(absent.json()).toEqual({ consentAccepted: [es.consentStale], MainCode_: 'validation_error' });
    const v2 = await publish(owner, form, {
      language: 'es',
      text: 'Acepto, versión 2.',
      requireCheckbox: true,
    });
    const stale = await send({ consentVersionId: v1.id, consentAccepted: true });
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({ consentAccepted: [es.consentStale], MainCode_: 'validation_error' });
    // Another form's version is no better.
    const other = await createPublicForm(owner, { language: 'es' });
    const foreign = await publish(owner, other, { language: 'es', text: 'Otro.', requireCheckbox: false });
    expect((await send({ consentVersionId: foreign.id, consentAccepted: true })).json()).toEqual({
      consentAccepted: [es.consentStale],
      MainCode_: 'validation_error',
    });
    expect(
      await t.db.db
        .select()
        .from(schema.verificationAttempts)
        .where(eq(schema.verificationAttempts.verifyFormId, form.id)),
    ).toEqual([]);

    const sent = await send({ consentVersionId: v2.id, consentAccepted: true });
    expect(sent.statusCode, sent.body).toBe(201);
  });

  it('an English refusal on an English form; a version without a checkbox needs no tick; a form without one, nothing', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const v1 = await publish(owner, form, { language: 'en', text: 'Plain notice.', requireCheckbox: false });
    const consumer = await newConsumer(t.app, form.publicId);
    const stale = await consumer.sendCode(form.publicId, {
      cellPhone: newCellPhone().typed,
      method: 'sms',
      consentVersionId: 'cv_nothing',
    });
    expect(stale.json()).toEqual({
      consentAccepted: [publicVerifyTexts.en.consentStale],
      MainCode_: 'validation_error',
    });
    const noTick = await consumer.sendCode(form.publicId, {
      cellPhone: newCellPhone().typed,
      method: 'sms',
      consentVersionId: v1.id,
    });
    expect(noTick.statusCode, noTick.body).toBe(201);

    const bare = await createPublicForm(owner);
    const plain = await newConsumer(t.app, bare.publicId);
    const sent = await plain.sendCode(bare.publicId, { cellPhone: newCellPhone().typed, method: 'sms' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await attemptOf(sent.json().attemptId)).toMatchObject({
      consentVersionId: null,
      consentSha256: null,
    });
  });

  it('the attempt and the verification keep v1’s id, number, language and hash after v2 is published', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner, { language: 'es' });
    const text = 'Acepto que Acme me contacte. Términos: https://acme.example/terminos';
    const v1 = await publish(owner, form, { language: 'es', text, requireCheckbox: true });
    const consumer = await newConsumer(t.app, form.publicId);
    const phone = newCellPhone();
    const sent = await consumer.sendCode(form.publicId, {
      cellPhone: phone.typed,
      method: 'sms',
      ...consumer.consentFields(),
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const { attemptId } = sent.json<{ attemptId: string }>();
    // v2 is published while the consumer reads the text message.
    await publish(owner, form, { language: 'es', text: 'Versión 2.', requireCheckbox: true });
    const checked = await consumer.check(attemptId, await latestCodeTo(t.app, phone.e164));
    expect(checked.statusCode, checked.body).toBe(200);

    const evidence = {
      consentVersionId: v1.id,
      consentVersion: 1,
      consentLanguage: 'es',
      consentSha256: sha256(text),
    };
    expect(await attemptOf(attemptId)).toMatchObject(evidence);
    expect(await verificationOf(checked.json().verificationId)).toMatchObject(evidence);

    // A consumer on the reloaded page verifies under v2.
    const later = await verifyPhone(t.app, form.publicId);
    expect(await verificationOf(later.verified.verificationId)).toMatchObject({
      consentVersion: 2,
      consentSha256: sha256('Versión 2.'),
    });
  });

  it('the detail, API v1 and the CSV show v1 for a verification made under v1, after v2', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const v1 = await publish(owner, form, {
      language: 'en',
      text: 'Version one, with "quotes", commas.',
      requireCheckbox: true,
    });
    const first = await verifyPhone(t.app, form.publicId);
    const v2 = await publish(owner, form, { language: 'en', text: 'Version two.', requireCheckbox: false });
    const second = await verifyPhone(t.app, form.publicId);
    const bare = await createPublicForm(owner, { name: 'No consent' });
    const none = await verifyPhone(t.app, bare.publicId);

    const detailOf = async (id: number) => {
      const response = await owner.c.get(`/api/verifications/${id}?account=${owner.accountId}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().consent;
    };
    const v1Evidence = { versionId: v1.id, version: 1, language: 'en', sha256: v1.sha256 };
    expect(await detailOf(first.verified.verificationId)).toEqual(v1Evidence);
    expect(await detailOf(second.verified.verificationId)).toEqual({
      versionId: v2.id,
      version: 2,
      language: 'en',
      sha256: v2.sha256,
    });
    expect(await detailOf(none.verified.verificationId)).toBeNull();

    const { key } = await newApiKey(owner, ['verifications:read'], 'live');
    const api = apiV1(t.app, key);
    const read = await api.GET('/api/v1/verifications/{id}', {
      params: { path: { id: first.sent.attemptId } },
    });
    expect(read.response.status).toBe(200);
    expect(read.data?.consent).toEqual(v1Evidence);
    const bareRead = await api.GET('/api/v1/verifications/{id}', {
      params: { path: { id: none.sent.attemptId } },
    });
    expect(bareRead.data?.consent).toBeNull();

    const csv = await owner.c.get(`/api/verifications/export-csv?account=${owner.accountId}&o=created`);
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    // Redacted (issue #19) follows the consent columns, then Revoked at (issue #35) and Reassigned (issue #36), empty
    // for these.
    expect(lines[0]?.endsWith(',Source,Consent version,Consent hash,Redacted,Revoked at,Reassigned')).toBe(
      true,
    );
    expect(lines.slice(1).map((line) => line.split(',').slice(-5, -2))).toEqual([
      ['1', v1.sha256, ''],
      ['2', v2.sha256, ''],
      ['', '', ''],
    ]);
  });
});
