import {
  LOOKUP_MONTHLY_CEILING,
  LOOKUP_REASSIGNED_MAX_AGE_DAYS,
  LOOKUP_SIM_SWAP_WINDOW_DAYS,
  type LookupKind,
  type LookupSettings,
  type UpdateLookupSettingsRequest,
} from '@veriform/contracts';
import { type Db, schema, transaction } from '@veriform/db';
import { asc, eq } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import { type AuditLog, auditTarget, changesOf } from '../audit/index.ts';
import { usageIn } from './usage.ts';

const { accounts, lookupSettings } = schema;

type SettingsRow = typeof lookupSettings.$inferSelect;
type Settings = Omit<SettingsRow, 'accountId'>;

/** An account without a row: everything off, the contract's defaults (the columns' defaults are the same). */
const DEFAULTS: Settings = {
  lineType: false,
  simSwap: false,
  simSwapWindowDays: LOOKUP_SIM_SWAP_WINDOW_DAYS.default,
  refuseOnSimSwap: false,
  reassignedChecks: false,
  reassignedMaxAgeDays: LOOKUP_REASSIGNED_MAX_AGE_DAYS.default,
  ceilingLineType: LOOKUP_MONTHLY_CEILING.default,
  ceilingSimSwap: LOOKUP_MONTHLY_CEILING.default,
  ceilingReassigned: LOOKUP_MONTHLY_CEILING.default,
};

async function settingsOf(reader: Db, accountId: number): Promise<Settings> {
  const [row] = await reader
    .select()
    .from(lookupSettings)
    .where(eq(lookupSettings.accountId, accountId))
    .limit(1);
  if (!row) return DEFAULTS;
  const { accountId: _account, ...settings } = row;
  return settings;
}

/**
 * The account's reassigned-number check settings (issue #36 item 2), whether checks are made and their age, from its
 * `lookup_settings` columns as a statement joined them: null when it has no row (the defaults).
 */
export function reassignedChecksFrom(joined: { on: boolean | null; maxAgeDays: number | null }): {
  on: boolean;
  maxAgeDays: number;
} {
  return {
    on: joined.on ?? DEFAULTS.reassignedChecks,
    maxAgeDays: joined.maxAgeDays ?? DEFAULTS.reassignedMaxAgeDays,
  };
}

/** The accounts with reassigned-number checks on, by id, each with its checks' age: the schedule's list. */
export async function accountsCheckingReassigned(
  reader: Db,
): Promise<{ accountId: number; maxAgeDays: number }[]> {
  return reader
    .select({ accountId: lookupSettings.accountId, maxAgeDays: lookupSettings.reassignedMaxAgeDays })
    .from(lookupSettings)
    .where(eq(lookupSettings.reassignedChecks, true))
    .orderBy(asc(lookupSettings.accountId));
}

/** The account's monthly ceiling of each kind (the defaults without a row). */
export async function ceilingsOf(reader: Db, accountId: number): Promise<Record<LookupKind, number>> {
  const settings = await settingsOf(reader, accountId);
  return {
    lineType: settings.ceilingLineType,
    simSwap: settings.ceilingSimSwap,
    reassigned: settings.ceilingReassigned,
  };
}

/** The settings as the contract names them, flat: the audit log's change names (`monthlyCeiling.simSwap`…). */
function named(settings: Settings) {
  return {
    lineType: settings.lineType,
    simSwap: settings.simSwap,
    simSwapWindowDays: settings.simSwapWindowDays,
    refuseOnSimSwap: settings.refuseOnSimSwap,
    reassignedChecks: settings.reassignedChecks,
    reassignedMaxAgeDays: settings.reassignedMaxAgeDays,
    'monthlyCeiling.lineType': settings.ceilingLineType,
    'monthlyCeiling.simSwap': settings.ceilingSimSwap,
    'monthlyCeiling.reassigned': settings.ceilingReassigned,
  };
}
const AUDITED = [
  'lineType',
  'simSwap',
  'simSwapWindowDays',
  'refuseOnSimSwap',
  'reassignedChecks',
  'reassignedMaxAgeDays',
  'monthlyCeiling.lineType',
  'monthlyCeiling.simSwap',
  'monthlyCeiling.reassigned',
] as const;

/** The change as columns: only what the body names. */
function columnsOf(body: UpdateLookupSettingsRequest): Partial<Settings> {
  const ceiling = body.monthlyCeiling ?? {};
  return {
    ...(body.lineType !== undefined ? { lineType: body.lineType } : {}),
    ...(body.simSwap !== undefined ? { simSwap: body.simSwap } : {}),
    ...(body.simSwapWindowDays !== undefined ? { simSwapWindowDays: body.simSwapWindowDays } : {}),
    ...(body.refuseOnSimSwap !== undefined ? { refuseOnSimSwap: body.refuseOnSimSwap } : {}),
    ...(body.reassignedChecks !== undefined ? { reassignedChecks: body.reassignedChecks } : {}),
    ...(body.reassignedMaxAgeDays !== undefined ? { reassignedMaxAgeDays: body.reassignedMaxAgeDays } : {}),
    ...(ceiling.lineType !== undefined ? { ceilingLineType: ceiling.lineType } : {}),
    ...(ceiling.simSwap !== undefined ? { ceilingSimSwap: ceiling.simSwap } : {}),
    ...(ceiling.reassigned !== undefined ? { ceilingReassigned: ceiling.reassigned } : {}),
  };
}

/**
 * The account's carrier lookup settings (issue #36): owners read and change them (the routes declare
 * `manageCompany`). A change is written with its `account.updated` audit event (changes named `lookups.<setting>`) in
 * one transaction, under the account row's lock (lib/account-lock.ts' order: the account first, the audit head last),
 * so two owners' changes at once each record what they replaced. A change that changes nothing records nothing.
 */
export function createLookupSettings(deps: { db: Db; clock: Clock; audit: AuditLog }) {
  const { db, clock, audit } = deps;

  async function answer(reader: Db, accountId: number, settings: Settings): Promise<LookupSettings> {
    return {
      lineType: settings.lineType,
      simSwap: settings.simSwap,
      simSwapWindowDays: settings.simSwapWindowDays,
      refuseOnSimSwap: settings.refuseOnSimSwap,
      reassignedChecks: settings.reassignedChecks,
      reassignedMaxAgeDays: settings.reassignedMaxAgeDays,
      monthlyCeiling: {
        lineType: settings.ceilingLineType,
        simSwap: settings.ceilingSimSwap,
        reassigned: settings.ceilingReassigned,
      },
      thisMonth: await usageIn(reader, accountId, clock.now()),
    };
  }

  async function get(ctx: AccountContext): Promise<LookupSettings> {
    return answer(db, ctx.accountId, await settingsOf(db, ctx.accountId));
  }

  async function update(ctx: AccountContext, body: UpdateLookupSettingsRequest): Promise<LookupSettings> {
    const values = columnsOf(body);
    const after = await transaction(db, async (tx) => {
      const [account] = await tx
        .select({ id: accounts.id, displayName: accounts.displayName })
        .from(accounts)
        .where(eq(accounts.id, ctx.accountId))
        .for('no key update');
      if (!account) throw new Error(`Account ${ctx.accountId} vanished during an update`);
      const before = await settingsOf(tx, ctx.accountId);
      const [row] = await tx
        .insert(lookupSettings)
        .values({ ...before, ...values, accountId: ctx.accountId })
        .onConflictDoUpdate({ target: lookupSettings.accountId, set: values })
        .returning();
      if (!row) throw new Error('lookup settings upsert returned no row');
      const { accountId: _account, ...settings } = row;
      const changes = changesOf(named(before), named(settings), AUDITED);
      if (changes)
        await audit.record(tx, ctx, {
          action: 'account.updated',
          targets: [auditTarget.account(account)],
          changes: Object.fromEntries(
            Object.entries(changes).map(([name, change]) => [`lookups.${name}`, change]),
          ),
        });
      return settings;
    });
    return answer(db, ctx.accountId, after);
  }

  return { get, update };
}

export type LookupSettingsService = ReturnType<typeof createLookupSettings>;
