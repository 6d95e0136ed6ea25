import { randomBytes } from 'node:crypto';
import {
  type ApiReassignment,
  CERTIFICATE_ALG,
  type Certificate,
  type CertificateKeys,
  certificateSchema,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { canonicalJson, sha256Hex } from '@veriform/verify-certificate';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { type AccountContext, keyLivemode } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';
import { certificateFacts } from './content.ts';
import { deriveSigningKey, publishedKeys, registerSigningKey } from './keys.ts';
import type { SignedCertificateText } from './pdf.ts';
import { refuseRedacted } from './redaction.ts';
import { standingFactsOf } from './standing-facts.ts';

const { verificationCertificates, certificateChainHeads, verificationAttempts } = schema;

export type CertificateRow = typeof verificationCertificates.$inferSelect;

/** A download's answer: the file's bytes and the certificate they are of (its id names the file). */
export type CertificateDownload<T> = { certificateId: string; body: T };

/** What a view's audit event reads from the content: the number, masked as signed. */
const maskedNumberOf = (content: string) =>
  z.object({ verification: z.object({ cellPhone: z.string() }) }).parse(JSON.parse(content)).verification
    .cellPhone;

/** The content as signed; a redacted certificate's is gone, and asking for it is told when and why. */
export function signedContent(row: Pick<CertificateRow, 'content' | 'redactedAt'>): string {
  if (row.content !== null) return row.content;
  throw new AppError('not_found', {
    detail: `The consumer's personal data in this verification was redacted on ${
      row.redactedAt?.toISOString() ?? 'an unknown date'
    }; its certificate's content was removed with it.`,
  });
}

/** `cert_` + 128 random bits: unguessable, as the public check page (`/certificates/{id}`) will name it. */
const newCertificateId = () => `cert_${randomBytes(16).toString('base64url')}`;

/**
 * The answer's exact bytes: the canonical JSON of `{certificate, signature}`, in which `certificate` is the stored
 * content as signed (canonical JSON nests: an object's canonical form inside a canonical document is its own).
 */
export function certificateFile(
  row: Pick<CertificateRow, 'content' | 'keyId' | 'signature' | 'redactedAt'>,
): string {
  return `{"certificate":${signedContent(row)},"signature":${canonicalJson({
    alg: CERTIFICATE_ALG,
    keyId: row.keyId,
    value: row.signature,
  })}}`;
}

/**
 * Verification certificates (issue #19, ADR 24): issued on a verification's first request, once — every later
 * request, from any process, answers the same stored bytes — and chained per account in issue order.
 */
export function createCertificateService(deps: { db: Db; clock: Clock; config: Config; audit: AuditLog }) {
  const { db, clock, config, audit } = deps;
  const key = deriveSigningKey(config.secretKey, config.certificateKeyGeneration);
  // pdf-lib and qrcode load with the first PDF asked for, not in every process at start (issue #20 item 5).
  let pdfRenderer:
    | Promise<(signed: SignedCertificateText, reassignment: ApiReassignment | null) => Promise<Buffer>>
    | undefined;
  const renderPdf = async (
    signed: SignedCertificateText,
    reassignment: ApiReassignment | null,
  ): Promise<Buffer> => {
    pdfRenderer ??= import('./pdf.ts').then(({ createCertificatePdfs }) => createCertificatePdfs(config));
    return (await pdfRenderer)(signed, reassignment);
  };
  let registered: Promise<void> | undefined;

  /** The current key in certificate_signing_keys, once per process (again after a failure). */
  function ensureKey(): Promise<void> {
    registered ??= registerSigningKey(db, clock, key).catch((error: unknown) => {
      registered = undefined;
      throw error;
    });
    return registered;
  }

  const existing = async (tx: Db, verificationId: number) =>
    (
      await tx
        .select()
        .from(verificationCertificates)
        .where(eq(verificationCertificates.verificationId, verificationId))
        .limit(1)
    )[0];

  /**
   * The verification's certificate, issued now if it has none. The content is gathered before any lock; then the
   * account's chain head is locked (one upsert, as the audit log's, ADR 19), the certificate looked for again — a
   * concurrent first request may have issued it meanwhile, and its commit is visible once the lock is ours — and only
   * then is the next link signed and stored. Not found: another account's or an unknown verification.
   */
  async function issue(accountId: number, verificationId: number): Promise<CertificateRow> {
    const found = await existing(db, verificationId);
    if (found) {
      if (found.accountId !== accountId) throw new AppError('not_found');
      return found;
    }
    await refuseRedacted(db, accountId, verificationId);
    await ensureKey();
    const salt = randomBytes(16).toString('hex');
    const facts = await certificateFacts(db, accountId, verificationId, clock.now(), salt, config.publicUrl);
    if (!facts) throw new AppError('not_found');
    return transaction(db, async (tx) => {
      const [head] = await tx
        .insert(certificateChainHeads)
        .values({ accountId, seq: 0, sha256: null })
        .onConflictDoUpdate({
          target: certificateChainHeads.accountId,
          set: { accountId: sql`excluded.account_id` },
        })
        .returning({ seq: certificateChainHeads.seq, sha256: certificateChainHeads.sha256 });
      if (!head) throw new Error('certificate chain head not returned');
      const issuedMeanwhile = await existing(tx, verificationId);
      if (issuedMeanwhile) return issuedMeanwhile;
      await refuseRedacted(tx, accountId, verificationId, true);
      const certificate: Certificate = {
        ...facts,
        id: newCertificateId(),
        issued: clock.now().toISOString(),
        chain: { seq: head.seq + 1, prevHash: head.sha256 },
      };
      const content = canonicalJson(certificate);
      const sha256 = sha256Hex(content);
      const [row] = await tx
        .insert(verificationCertificates)
        .values({
          id: certificate.id,
          accountId,
          verificationId,
          seq: certificate.chain.seq,
          prevHash: certificate.chain.prevHash,
          content,
          sha256,
          keyId: key.keyId,
          signature: key.sign(Buffer.from(content, 'utf8')).toString('base64'),
          unlockSalt: salt,
          createdAt: new Date(certificate.issued),
        })
        .returning();
      if (!row) throw new Error('certificate insert returned no row');
      await tx
        .update(certificateChainHeads)
        .set({ seq: certificate.chain.seq, sha256 })
        .where(eq(certificateChainHeads.accountId, accountId));
      return row;
    });
  }

  /**
   * A view (JSON) or a download (PDF) is recorded (issue #19 item 6) before it is answered; the event names the number
   * masked, as views do.
   */
  async function recorded(ctx: AccountContext, row: CertificateRow, format: 'json' | 'pdf'): Promise<void> {
    await transaction(db, (tx) =>
      audit.record(tx, ctx, {
        action: format === 'json' ? 'verification.certificate_viewed' : 'verification.certificate_downloaded',
        targets: [
          {
            type: 'verification',
            id: String(row.verificationId),
            name: maskedNumberOf(signedContent(row)),
          },
        ],
        changes: { certificateId: row.id, format },
      }),
    );
  }

  async function asJson(ctx: AccountContext, row: CertificateRow): Promise<CertificateDownload<string>> {
    const body = certificateFile(row);
    await recorded(ctx, row, 'json');
    return { certificateId: row.id, body };
  }

  async function asPdf(ctx: AccountContext, row: CertificateRow): Promise<CertificateDownload<Buffer>> {
    // The latest reassigned-number check (issue #36), printed beside the signed content as the standing says it.
    const { reassignment } = await standingFactsOf(db, row.verificationId);
    const body = await renderPdf(
      {
        file: certificateFile(row),
        content: signedContent(row),
        keyId: row.keyId,
        signature: row.signature,
      },
      reassignment,
    );
    await recorded(ctx, row, 'pdf');
    return { certificateId: row.id, body };
  }

  /**
   * API v1's id (an attempt's) to the verification it approved; not found while it is not approved, or another
   * account's.
   */
  async function approvedBy(ctx: AccountContext, attemptId: string): Promise<number> {
    const livemode = keyLivemode(ctx);
    const [attempt] = await db
      .select({ verificationId: verificationAttempts.verificationId })
      .from(verificationAttempts)
      .where(
        and(
          eq(verificationAttempts.id, attemptId),
          eq(verificationAttempts.accountId, ctx.accountId),
          // The key's own mode only (issue #33, ADR 29): another mode's verification is as unknown.
          ...(livemode === null ? [] : [eq(verificationAttempts.isTest, !livemode)]),
        ),
      )
      .limit(1);
    if (!attempt) throw new AppError('not_found');
    if (attempt.verificationId === null)
      throw new AppError('not_found', {
        detail: 'This verification is not approved: only an approved verification has a certificate.',
      });
    return attempt.verificationId;
  }

  /** GET /api/verifications/{id}/certificate: the signed file's text. */
  async function forVerification(ctx: AccountContext, verificationId: number) {
    return asJson(ctx, await issue(ctx.accountId, verificationId));
  }

  /** GET /api/verifications/{id}/certificate.pdf: the sealed PDF. */
  async function pdfForVerification(ctx: AccountContext, verificationId: number) {
    return asPdf(ctx, await issue(ctx.accountId, verificationId));
  }

  /** GET /api/v1/verifications/{id}/certificate, by API v1's id: the certificate of the verification it approved. */
  async function forAttempt(ctx: AccountContext, attemptId: string) {
    return asJson(ctx, await issue(ctx.accountId, await approvedBy(ctx, attemptId)));
  }

  /** GET /api/v1/verifications/{id}/certificate.pdf. */
  async function pdfForAttempt(ctx: AccountContext, attemptId: string) {
    return asPdf(ctx, await issue(ctx.accountId, await approvedBy(ctx, attemptId)));
  }

  async function keys(): Promise<CertificateKeys> {
    await ensureKey();
    return publishedKeys(db);
  }

  /** One account's certificates as signed, in chain order (for checks and exports). */
  async function chainOf(accountId: number): Promise<Certificate[]> {
    const rows = await db
      .select({ content: verificationCertificates.content, redactedAt: verificationCertificates.redactedAt })
      .from(verificationCertificates)
      .where(eq(verificationCertificates.accountId, accountId))
      .orderBy(verificationCertificates.seq);
    return rows.map((row) => certificateSchema.parse(JSON.parse(signedContent(row))));
  }

  return {
    issue,
    forVerification,
    forAttempt,
    pdfForVerification,
    pdfForAttempt,
    keys,
    chainOf,
    keyId: key.keyId,
  };
}

export type CertificateService = ReturnType<typeof createCertificateService>;
