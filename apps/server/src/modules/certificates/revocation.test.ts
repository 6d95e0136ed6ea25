import type { VerificationCertificateStanding, VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { insertVerification } from '../verifications/test-helpers.ts';
import { revocationTexts } from './revocation.ts';

const t = useTestApp();
const { verificationCertificates, auditEvents } = schema;

const revokeUrl = (owner: Owner, verificationId: number) =>
  `/api/verifications/${verificationId}/certificate/revoke?account=${owner.accountId}`;
const standingUrl = (owner: Owner, verificationId: number) =>
  `/api/verifications/${verificationId}/certificate/standing?account=${owner.accountId}`;

const rowOf = async (verificationId: number) =>
  (
    await t.db.db
      .select()
      .from(verificationCertificates)
      .where(eq(verificationCertificates.verificationId, verificationId))
  )[0];

const revocationEvents = (owner: Owner) =>
  t.db.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.accountId, owner.accountId),
        eq(auditEvents.action, 'verification.certificate_revoked'),
      ),
    );

async function ownerWithForm(): Promise<{ owner: Owner; form: VerifyForm }> {
  const owner = await newOwner(t.app);
  return { owner, form: await createPublicForm(owner) };
}

describe('GET /api/verifications/{id}/certificate/standing', () => {
  it('issues nothing: no certificate yet is valid with no id; once issued, its id and time', async () => {
    const { owner, form } = await ownerWithForm();
    const verification = await insertVerification(t, form);
    const before = await owner.c.get(standingUrl(owner, verification.id));
    expect(before.statusCode, before.body).toBe(200);
    expect(before.headers['cache-control']).toBe('no-store');
    expect(before.json()).toEqual({
      status: 'valid',
      revokedAt: null,
      revocationReason: null,
      redactedAt: null,
      purgedAt: null,
      consentRevokedAt: null,
      reassignment: null,
      certificateId: null,
      issuedAt: null,
    } satisfies VerificationCertificateStanding);
    expect(await rowOf(verification.id)).toBeUndefined();

    const row = await t.app.services.certificates.issue(owner.accountId, verification.id);
    expect((await owner.c.get(standingUrl(owner, verification.id))).json()).toEqual({
      status: 'valid',
      revokedAt: null,
      revocationReason: null,
      redactedAt: null,
      purgedAt: null,
      consentRevokedAt: null,
      reassignment: null,
      certificateId: row.id,
      issuedAt: row.createdAt.toISOString(),
    });
  });

  it('a redacted verification with no certificate stands redacted, with the date', async () => {
    const { owner, form } = await ownerWithForm();
    const redactedAt = new Date('2026-06-01T08:00:00.000Z');
    const verification = await insertVerification(t, form, { redactedAt });
    expect((await owner.c.get(standingUrl(owner, verification.id))).json()).toEqual({
      status: 'redacted',
      revokedAt: null,
      revocationReason: null,
      redactedAt: redactedAt.toISOString(),
      purgedAt: null,
      consentRevokedAt: null,
      reassignment: null,
      certificateId: null,
      issuedAt: null,
    });
  });

  it('a member with canSearchData may read it; one without gets 403; another account 404', async () => {
    const { owner, form } = await ownerWithForm();
    const verification = await insertVerification(t, form);
    const searcher = await join(t.app, owner, { canSearchData: true });
    const plain = await join(t.app, owner);
    expect((await searcher.c.get(standingUrl(owner, verification.id))).statusCode).toBe(200);
    expect((await plain.c.get(standingUrl(owner, verification.id))).statusCode).toBe(403);
    const stranger = await newOwner(t.app);
    expect((await stranger.c.get(standingUrl(stranger, verification.id))).statusCode).toBe(404);
  });
});

describe('POST /api/verifications/{id}/certificate/revoke', () => {
  it('issues the certificate if need be, revokes it once with the reason, audited; the public page and the standing say so', async () => {
    const { owner, form } = await ownerWithForm();
    const verification = await insertVerification(t, form);
    const response = await owner.c.post(revokeUrl(owner, verification.id), {
      reason: '  Lead disputed it  ',
    });
    expect(response.statusCode, response.body).toBe(200);
    const row = await rowOf(verification.id);
    if (!row) throw new Error('revoking issued no certificate');
    const revokedAt = t.clock.now().toISOString();
    const standing = {
      status: 'revoked',
      revokedAt,
      revocationReason: 'Lead disputed it',
      redactedAt: null,
      purgedAt: null,
      consentRevokedAt: null,
      reassignment: null,
      certificateId: row.id,
      issuedAt: row.createdAt.toISOString(),
    } satisfies VerificationCertificateStanding;
    expect(response.json()).toEqual(standing);
    expect((await owner.c.get(standingUrl(owner, verification.id))).json()).toEqual(standing);
    expect(row).toMatchObject({ revokedAt: new Date(revokedAt), revocationReason: 'Lead disputed it' });

    const events = await revocationEvents(owner);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorType: 'user',
      actorId: String(owner.userId),
      targetType: 'verification',
      targetId: String(verification.id),
      changes: { certificateId: row.id, reason: 'Lead disputed it' },
    });
    expect(events[0]?.targets).toEqual([
      {
        type: 'verification',
        id: String(verification.id),
        name: `+1 ••• ••• ${verification.cellPhone.slice(-4)}`,
      },
    ]);

    const shown = await t.app.inject({ method: 'GET', url: `/api/public/certificates/${row.id}` });
    expect(shown.json()).toMatchObject({
      status: 'revoked',
      revokedAt,
      revocationReason: 'Lead disputed it',
    });

    t.clock.advance(60_000);
    const again = await owner.c.post(revokeUrl(owner, verification.id), { reason: 'Once more' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      nonFieldErrors: [revocationTexts.alreadyRevoked(new Date(revokedAt))],
      MainCode_: 'validation_error',
    });
    expect(again.json<{ nonFieldErrors: string[] }>().nonFieldErrors[0]).toBe(
      `This certificate was already revoked on ${revokedAt}.`,
    );
    expect(await revocationEvents(owner)).toHaveLength(1);
  });

  it('ten revocations at once: exactly one revokes and is audited, nine are told it already was', async () => {
    const { owner, form } = await ownerWithForm();
    const verification = await insertVerification(t, form);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        owner.c.post(revokeUrl(owner, verification.id), { reason: `Reason ${i}` }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(9);
    const winner = answers.find((r) => r.statusCode === 200)?.json<VerificationCertificateStanding>();
    const events = await revocationEvents(owner);
    expect(events).toHaveLength(1);
    expect(events[0]?.changes).toEqual({
      certificateId: winner?.certificateId,
      reason: winner?.revocationReason,
    });
    expect((await rowOf(verification.id))?.revocationReason).toBe(winner?.revocationReason);
    const rows = await t.db.db
      .select()
      .from(verificationCertificates)
      .where(eq(verificationCertificates.accountId, owner.accountId));
    expect(rows).toHaveLength(1);
  });

  it('only owners (manageEvidence): a member, even with every switch, gets 403; another account 404; nothing revoked', async () => {
    const { owner, form } = await ownerWithForm();
    const verification = await insertVerification(t, form);
    const member = await join(t.app, owner, { canSearchData: true, canViewReports: true });
    const refused = await member.c.post(revokeUrl(owner, verification.id), { reason: 'Because' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail: 'You are not permitted to perform that action.',
      MainCode_: 'permission_denied',
    });
    const stranger = await newOwner(t.app);
    const hidden = await stranger.c.post(revokeUrl(stranger, verification.id), { reason: 'Because' });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ detail: 'Not found.', MainCode_: 'not_found' });
    expect(await rowOf(verification.id)).toBeUndefined();
    // Without the CSRF token, as every unsafe session call.
    expect(
      (await owner.c.post(revokeUrl(owner, verification.id), { reason: 'x' }, { csrf: false })).statusCode,
    ).toBe(403);
  });

  it('a reason is required, in words, and at most 500 characters', async () => {
    const { owner, form } = await ownerWithForm();
    const verification = await insertVerification(t, form);
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      const response = await owner.c.post(revokeUrl(owner, verification.id), body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ reason: [expect.any(String)], MainCode_: 'validation_error' });
    }
    expect((await owner.c.post(revokeUrl(owner, verification.id), { reason: '' })).json()).toEqual({
      reason: ['Say why the certificate is revoked.'],
      MainCode_: 'validation_error',
    });
    expect(await rowOf(verification.id)).toBeUndefined();
    expect(
      (await owner.c.post(revokeUrl(owner, verification.id), { reason: 'x'.repeat(500) })).statusCode,
    ).toBe(200);
  });
});

describe('the database allows only the one-time revocation and redaction (migration 0021)', () => {
  const refusal = async (statement: SQL) => {
    try {
      await t.db.db.execute(statement);
      return 'accepted';
    } catch (error) {
      return error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    }
  };
  const REFUSED = 'verification_certificates is immutable: UPDATE refused';

  it('revoked once; then neither the date nor the reason changes, nor the content, signature or place in the chain', async () => {
    const { owner, form } = await ownerWithForm();
    const row = await t.app.services.certificates.issue(
      owner.accountId,
      (await insertVerification(t, form)).id,
    );
    const id = row.id;
    expect(
      await refusal(
        sql`update verification_certificates set revoked_at = now(), revocation_reason = 'First' where id = ${id}`,
      ),
    ).toBe('accepted');
    for (const change of [
      sql`update verification_certificates set revoked_at = now() + interval '1 day' where id = ${id}`,
      sql`update verification_certificates set revocation_reason = 'Second' where id = ${id}`,
      sql`update verification_certificates set revoked_at = null, revocation_reason = null where id = ${id}`,
      sql`update verification_certificates set content = content || ' ' where id = ${id}`,
      sql`update verification_certificates set signature = 'AAAA' where id = ${id}`,
      sql`update verification_certificates set seq = seq + 100 where id = ${id}`,
      sql`update verification_certificates set sha256 = 'x' where id = ${id}`,
      sql`update verification_certificates set unlock_salt = 'x' where id = ${id}`,
    ]) {
      expect(await refusal(change)).toBe(REFUSED);
    }
    // A revocation without a reason is refused by its check.
    const other = await t.app.services.certificates.issue(
      owner.accountId,
      (await insertVerification(t, form)).id,
    );
    expect(
      await refusal(sql`update verification_certificates set revoked_at = now() where id = ${other.id}`),
    ).toMatch(/verification_certificates_revoked_check/);
    expect(await rowOf(row.verificationId)).toMatchObject({
      revocationReason: 'First',
      content: row.content,
    });
  });

  it('redacted once, with content and salt removed together; nothing after that', async () => {
    const { owner, form } = await ownerWithForm();
    const row = await t.app.services.certificates.issue(
      owner.accountId,
      (await insertVerification(t, form)).id,
    );
    const id = row.id;
    // Half a redaction is refused: the content without the salt, or the date with the content kept.
    expect(await refusal(sql`update verification_certificates set content = null where id = ${id}`)).not.toBe(
      'accepted',
    );
    expect(
      await refusal(sql`update verification_certificates set redacted_at = now() where id = ${id}`),
    ).not.toBe('accepted');
    expect(
      await refusal(
        sql`update verification_certificates set redacted_at = now(), content = null, unlock_salt = null where id = ${id}`,
      ),
    ).toBe('accepted');
    expect(
      await refusal(
        sql`update verification_certificates set redacted_at = now() + interval '1 day' where id = ${id}`,
      ),
    ).toBe(REFUSED);
    expect(await refusal(sql`update verification_certificates set signature = 'AAAA' where id = ${id}`)).toBe(
      REFUSED,
    );
    // Revoking a redacted certificate is still the one revocation.
    expect(
      await refusal(
        sql`update verification_certificates set revoked_at = now(), revocation_reason = 'Late' where id = ${id}`,
      ),
    ).toBe('accepted');
    expect(await rowOf(row.verificationId)).toMatchObject({
      content: null,
      unlockSalt: null,
      sha256: row.sha256,
      signature: row.signature,
      seq: row.seq,
    });
  });
});
