import { createHash } from 'node:crypto';
import type { VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';

const t = useTestApp();

async function formOf(owner: Owner): Promise<VerifyForm> {
  const response = await owner.c.post('/api/verify-forms', { account: owner.accountId, name: 'Leads' });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<VerifyForm>();
}

/** A version written straight to the table, as a careless script would: the trigger is the last word. */
async function insertVersion(
  owner: Owner,
  form: VerifyForm,
  id: string,
  createdBy: number | null = owner.userId,
) {
  const text = `Consent ${id}`;
  await t.db.db.insert(schema.consentVersions).values({
    id,
    verifyFormId: form.id,
    accountId: owner.accountId,
    language: 'en',
    version: 1,
    text,
    sha256: createHash('sha256').update(text).digest('hex'),
    requireCheckbox: false,
    createdBy,
  });
}

/** The database's own message (drizzle wraps it as the cause of "Failed query"). */
async function refusal(query: Promise<unknown>): Promise<string> {
  try {
    await query;
  } catch (error) {
    return error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
  }
  return 'accepted';
}
const refused = (op: string) => `consent_versions is immutable: ${op} refused`;

const rowOf = async (id: string) =>
  (await t.db.db.select().from(schema.consentVersions).where(eq(schema.consentVersions.id, id)))[0];

describe('consent_versions in the database (migration 0017)', () => {
  it('refuses an UPDATE and a DELETE by SQL, and the row stays as published', async () => {
    const owner = await newOwner(t.app);
    const form = await formOf(owner);
    await insertVersion(owner, form, 'cv_sql');
    const before = await rowOf('cv_sql');
    expect(
      await refusal(t.db.db.execute(sql`update consent_versions set text = 'changed' where id = 'cv_sql'`)),
    ).toBe(refused('UPDATE'));
    // The one update that passes (the author's removal) cannot carry another change with it.
    expect(
      await refusal(
        t.db.db.execute(sql`update consent_versions set created_by = null, text = 'x' where id = 'cv_sql'`),
      ),
    ).toBe(refused('UPDATE'));
    expect(await refusal(t.db.db.execute(sql`delete from consent_versions where id = 'cv_sql'`))).toBe(
      refused('DELETE'),
    );
    expect(await rowOf('cv_sql')).toEqual(before);
  });

  it('goes with its form, with its account, and outlives its author (created_by becomes null)', async () => {
    const owner = await newOwner(t.app);
    const kept = await formOf(owner);
    const removed = await formOf(owner);
    await insertVersion(owner, kept, 'cv_kept');
    await insertVersion(owner, removed, 'cv_removed');

    const gone = await owner.c.request({ method: 'DELETE', url: `/api/verify-forms/${removed.id}` });
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await rowOf('cv_removed')).toBeUndefined();

    const author = await newOwner(t.app);
    const authored = await formOf(author);
    await insertVersion(author, authored, 'cv_authored');
    await t.db.db.delete(schema.memberships).where(eq(schema.memberships.userId, author.userId));
    await t.db.db.delete(schema.users).where(eq(schema.users.id, author.userId));
    expect(await rowOf('cv_authored')).toMatchObject({ text: 'Consent cv_authored', createdBy: null });

    await t.db.db.delete(schema.accounts).where(eq(schema.accounts.id, owner.accountId));
    expect(await rowOf('cv_kept')).toBeUndefined();
  });
});
