import { createHash, randomBytes } from 'node:crypto';
import type {
  ConsentVersion,
  ConsentVersionList,
  ConsentVersionListQuery,
  Language,
  publishConsentVersionRequestSchema,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { type AccountContext, memberOf } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget } from '../audit/index.ts';

const { consentVersions, verifyForms, users } = schema;

type PublishRequest = z.output<typeof publishConsentVersionRequestSchema>;

/** Hex SHA-256 of the text's UTF-8 bytes: what a verification's evidence and a dispute compare. */
export const consentSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** 16 random bytes: the public page shows the id, so it tells nothing about other forms or accounts. */
const newConsentVersionId = () => `cv_${randomBytes(16).toString('base64url')}`;

/** What the public page shows and an attempt records: the current version of one form's language. */
export type CurrentConsent = {
  id: string;
  version: number;
  language: Language;
  text: string;
  sha256: string;
  requireCheckbox: boolean;
};

const currentColumns = {
  id: consentVersions.id,
  version: consentVersions.version,
  language: consentVersions.language,
  text: consentVersions.text,
  sha256: consentVersions.sha256,
  requireCheckbox: consentVersions.requireCheckbox,
};

/** The newest version of a form's language (the unique index serves it), or undefined when none was published. */
export async function currentConsent(
  db: Db,
  formId: number,
  language: Language,
): Promise<CurrentConsent | undefined> {
  const [row] = await db
    .select(currentColumns)
    .from(consentVersions)
    .where(and(eq(consentVersions.verifyFormId, formId), eq(consentVersions.language, language)))
    .orderBy(desc(consentVersions.version))
    .limit(1);
  return row;
}

/**
 * Consent versions of an account's forms (issue #18 items 1–2, ADR 22). Publishing takes the form row's lock, so
 * concurrent publishes of one form are numbered one after another; the same text and checkbox as the current version
 * publish nothing (the current version is answered, 200), so a double click or a retried request never makes a second
 * version of what consumers already see. There is no edit or removal, here or in the database.
 */
export function createConsentService(deps: { db: Db; clock: Clock; audit: AuditLog }) {
  const { db, clock, audit } = deps;

  const ownForm = (ctx: AccountContext, formId: number) =>
    and(eq(verifyForms.accountId, ctx.accountId), eq(verifyForms.id, formId));

  async function publish(
    ctx: AccountContext,
    formId: number,
    body: PublishRequest,
  ): Promise<{ created: boolean; version: ConsentVersion }> {
    const author = memberOf(ctx).user;
    return transaction(db, async (tx) => {
      // The form row's lock numbers this form's versions one at a time (in every process); the unique index
      // (form, language, version) would refuse a duplicate number if anything ever skipped the lock.
      const [form] = await tx
        .select({ id: verifyForms.id, name: verifyForms.name })
        .from(verifyForms)
        .where(ownForm(ctx, formId))
        .for('update');
      if (!form) throw new AppError('not_found');
      const current = await currentConsent(tx, form.id, body.language);
      if (current && current.text === body.text && current.requireCheckbox === body.requireCheckbox) {
        const [existing] = await listRows(tx, form.id, { language: body.language }, current.id);
        if (!existing) throw new Error('Current consent version vanished under the form lock');
        return { created: false, version: existing };
      }
      const now = clock.now();
      const [inserted] = await tx
        .insert(consentVersions)
        .values({
          id: newConsentVersionId(),
          verifyFormId: form.id,
          accountId: ctx.accountId,
          language: body.language,
          version: (current?.version ?? 0) + 1,
          text: body.text,
          sha256: consentSha256(body.text),
          requireCheckbox: body.requireCheckbox,
          createdAt: now,
          createdBy: author.id,
        })
        .returning();
      if (!inserted) throw new Error('Consent version insert returned no row');
      await audit.record(tx, ctx, {
        action: 'verify_form.consent_published',
        targets: [auditTarget.form(form)],
        changes: {
          language: inserted.language,
          version: [current?.version ?? null, inserted.version],
          sha256: [current?.sha256 ?? null, inserted.sha256],
          requireCheckbox: [current?.requireCheckbox ?? null, inserted.requireCheckbox],
        },
      });
      return {
        created: true,
        version: toDto({ ...inserted, createdByEmail: author.email }),
      };
    });
  }

  async function list(
    ctx: AccountContext,
    formId: number,
    query: ConsentVersionListQuery,
  ): Promise<ConsentVersionList> {
    const [form] = await db
      .select({ id: verifyForms.id })
      .from(verifyForms)
      .where(ownForm(ctx, formId))
      .limit(1);
    if (!form) throw new AppError('not_found');
    return { results: await listRows(db, form.id, query) };
  }

  return { publish, list };
}

type VersionRow = typeof consentVersions.$inferSelect & { createdByEmail: string | null };

const toDto = (row: VersionRow): ConsentVersion => ({
  id: row.id,
  version: row.version,
  language: row.language,
  text: row.text,
  sha256: row.sha256,
  requireCheckbox: row.requireCheckbox,
  created: row.createdAt.toISOString(),
  createdBy: row.createdByEmail,
});

/** Newest first: by language, then version (a form has a few dozen versions at most; no paging). */
async function listRows(
  db: Db,
  formId: number,
  query: ConsentVersionListQuery,
  onlyId?: string,
): Promise<ConsentVersion[]> {
  const rows = await db
    .select({
      id: consentVersions.id,
      verifyFormId: consentVersions.verifyFormId,
      accountId: consentVersions.accountId,
      language: consentVersions.language,
      version: consentVersions.version,
      text: consentVersions.text,
      sha256: consentVersions.sha256,
      requireCheckbox: consentVersions.requireCheckbox,
      createdAt: consentVersions.createdAt,
      createdBy: consentVersions.createdBy,
      createdByEmail: users.email,
    })
    .from(consentVersions)
    .leftJoin(users, eq(users.id, consentVersions.createdBy))
    .where(
      and(
        eq(consentVersions.verifyFormId, formId),
        query.language ? eq(consentVersions.language, query.language) : undefined,
        onlyId ? eq(consentVersions.id, onlyId) : undefined,
      ),
    )
    .orderBy(desc(consentVersions.createdAt), desc(consentVersions.version));
  return rows.map(toDto);
}

export type ConsentService = ReturnType<typeof createConsentService>;

/**
 * send-code's consent check (issue #18 item 2): the page must name the current version of the form's language (a
 * page loaded before a newer version was published is `stale`, as is a version id sent when the form has none), and
 * tick its box when the version requires it. A form without consent text takes requests without either.
 */
export function consentRefusal(
  current: CurrentConsent | undefined,
  request: { consentVersionId?: string | undefined; consentAccepted?: boolean | undefined },
): 'stale' | 'required' | null {
  if (!current) return request.consentVersionId === undefined ? null : 'stale';
  if (request.consentVersionId !== current.id) return 'stale';
  if (current.requireCheckbox && request.consentAccepted !== true) return 'required';
  return null;
}
