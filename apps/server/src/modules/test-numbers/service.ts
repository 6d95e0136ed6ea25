import {
  type AuditTarget,
  type CreateTestPhoneNumberRequest,
  type SimulatedDeliveryErrorCode,
  simulatedDeliveryErrorCodeSchema,
  type TestPhoneNumber,
  testNumberTexts,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, asc, eq } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';

const { testPhoneNumbers } = schema;

type TestPhoneNumberRow = typeof testPhoneNumbers.$inferSelect;

/** Numbers without a country code are read as US numbers, as on the public page. */
const DEFAULT_COUNTRY = 'US';

/** Written only through the contract's enum; anything else read back (a hand edit) shows as delivered. */
function simulatedErrorCodeOf(stored: string | null): SimulatedDeliveryErrorCode | null {
  const parsed = simulatedDeliveryErrorCodeSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/**
 * E.164 of a typed number, or null when it is not a valid number. The full metadata (`/max`) and the same default
 * country as the public page's parser, so that a number stored here is exactly the one the public page looks up.
 */
export function toE164(input: string): string | null {
  const number = parsePhoneNumberFromString(input, DEFAULT_COUNTRY);
  return number?.isValid() ? number.number : null;
}

/**
 * An account's test numbers (test mode; ours). Every member may read them (they need the codes to try a form);
 * only owners add or remove them — the routes check that with `manageCompany`.
 */
export function createTestNumberService(deps: {
  db: Db;
  /** The audit log (issue #16): write with the change's own transaction. */
  audit: AuditLog;
}) {
  const { db, audit } = deps;

  /**
   * Named by the number in full: the test-numbers card shows it so to every member of the account already, and the
   * audit log is for its owners only; a masked one would not tell two test numbers apart.
   */
  const numberTarget = (row: { id: number; cellPhone: string }): AuditTarget => ({
    type: 'test_number',
    id: String(row.id),
    name: row.cellPhone,
  });

  const toDto = (row: TestPhoneNumberRow): TestPhoneNumber => ({
    id: row.id,
    account: row.accountId,
    cellPhone: row.cellPhone,
    code: row.code,
    simulatedErrorCode: simulatedErrorCodeOf(row.simulatedErrorCode),
    created: row.createdAt.toISOString(),
  });

  async function list(ctx: AccountContext): Promise<{ results: TestPhoneNumber[] }> {
    const rows = await db
      .select()
      .from(testPhoneNumbers)
      .where(eq(testPhoneNumbers.accountId, ctx.accountId))
      .orderBy(asc(testPhoneNumbers.createdAt), asc(testPhoneNumbers.id));
    return { results: rows.map(toDto) };
  }

  async function create(ctx: AccountContext, body: CreateTestPhoneNumberRequest): Promise<TestPhoneNumber> {
    const cellPhone = toE164(body.cellPhone);
    if (!cellPhone) throw AppError.field('validation_error', 'cellPhone', testNumberTexts.invalidPhone);
    try {
      const row = await transaction(db, async (tx) => {
        const [inserted] = await tx
          .insert(testPhoneNumbers)
          .values({
            accountId: ctx.accountId,
            cellPhone,
            code: body.code,
            simulatedErrorCode: body.simulatedErrorCode ?? null,
          })
          .returning();
        if (!inserted) throw new Error('Test number insert returned no row');
        // The code is not recorded: it approves the number on any of the account's forms.
        await audit.record(tx, ctx, { action: 'test_number.added', targets: [numberTarget(inserted)] });
        return inserted;
      });
      return toDto(row);
    } catch (error) {
      // The unique index (account_id, cell_phone) decides, so two owners adding the same number at once cannot both win.
      if (isUniqueViolation(error))
        throw AppError.field('validation_error', 'cellPhone', testNumberTexts.duplicate);
      throw error;
    }
  }

  async function remove(ctx: AccountContext, id: number): Promise<void> {
    await transaction(db, async (tx) => {
      const [deleted] = await tx
        .delete(testPhoneNumbers)
        .where(and(eq(testPhoneNumbers.accountId, ctx.accountId), eq(testPhoneNumbers.id, id)))
        .returning({ id: testPhoneNumbers.id, cellPhone: testPhoneNumbers.cellPhone });
      if (!deleted) throw new AppError('not_found');
      await audit.record(tx, ctx, { action: 'test_number.removed', targets: [numberTarget(deleted)] });
    });
  }

  return { list, create, remove };
}

export type TestNumberService = ReturnType<typeof createTestNumberService>;
