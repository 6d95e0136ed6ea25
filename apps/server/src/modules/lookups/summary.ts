import {
  type CarrierLineType,
  carrierLineTypes,
  type LookupSummary,
  type LookupSummaryParams,
} from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { createdWithin, resolveReportRange } from '../../domain/date-range.ts';
import type { AccountContext } from '../../plugins/account-context.ts';

const { lookups } = schema;

const knownLineTypes: ReadonlySet<string> = new Set(carrierLineTypes);
const isLineType = (value: string): value is CarrierLineType => knownLineTypes.has(value);

/**
 * The dashboard's carrier lookups (issue #36 item 5): the account's live lookups asked in the report's range (the
 * same days, zone and bounds as the report: resolveReportRange), counted by kind, outcome and answer in one grouped
 * read. A SIM swap answer is counted as the code sends judged it (`sim_swap_within_window` on the attempts it served:
 * the judgment is theirs, made with the window of that moment), so the window is never judged a second time here.
 */
export async function lookupSummary(
  db: Db,
  ctx: AccountContext,
  query: LookupSummaryParams,
  now: Date,
): Promise<LookupSummary> {
  const range = resolveReportRange(query, now);
  // Whether a SIM swap record's codes were flagged: true when any was, false when judged and none was, null when
  // none was judged (the carrier told nothing, or the record served no code).
  // (Written out: drizzle leaves a column unqualified inside a raw subquery, where `id` would be the attempt's.)
  const flagged = sql<boolean | null>`case when ${lookups.kind} = 'simSwap' then (
    select bool_or(judged.sim_swap_within_window) from verification_attempts judged
    where judged.sim_swap_lookup_id = lookups.id and judged.account_id = lookups.account_id
  ) end`;
  const asked = db
    .select({
      kind: lookups.kind,
      status: lookups.status,
      lineType: lookups.lineType,
      reassigned: lookups.reassigned,
      flagged: flagged.as('flagged'),
    })
    .from(lookups)
    .where(
      and(
        eq(lookups.accountId, ctx.accountId),
        eq(lookups.isTest, false),
        inArray(lookups.status, ['answered', 'failed']),
        ...createdWithin(lookups.askedAt, range),
      ),
    )
    .as('asked');
  const rows = await db
    .select({
      kind: asked.kind,
      status: asked.status,
      lineType: asked.lineType,
      reassigned: asked.reassigned,
      flagged: asked.flagged,
      n: sql<number>`count(*)::int`,
    })
    .from(asked)
    .groupBy(asked.kind, asked.status, asked.lineType, asked.reassigned, asked.flagged);

  const summary: LookupSummary = {
    range,
    lineType: { asked: 0, failed: 0, byType: [] },
    simSwap: { asked: 0, failed: 0, withinWindow: 0, outsideWindow: 0, noData: 0 },
    reassigned: { asked: 0, failed: 0, yes: 0, no: 0, noData: 0 },
  };
  const byType = new Map<CarrierLineType | 'no_data', number>();
  for (const row of rows) {
    const n = Number(row.n);
    const kind = summary[row.kind];
    kind.asked += n;
    if (row.status === 'failed') {
      kind.failed += n;
      continue;
    }
    if (row.kind === 'lineType') {
      // A type the contract does not name is kept as received in the record; here it reads as `unknown`.
      const type = row.lineType === null ? 'no_data' : isLineType(row.lineType) ? row.lineType : 'unknown';
      byType.set(type, (byType.get(type) ?? 0) + n);
    } else if (row.kind === 'simSwap') {
      const judged =
        row.flagged === true ? 'withinWindow' : row.flagged === false ? 'outsideWindow' : 'noData';
      summary.simSwap[judged] += n;
    } else {
      // An answered check without a reading of yes or no is no data, never a no.
      const answer = row.reassigned === 'yes' ? 'yes' : row.reassigned === 'no' ? 'no' : 'noData';
      summary.reassigned[answer] += n;
    }
  }
  summary.lineType.byType = [...byType.entries()]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .map(([lineType, count]) => ({ lineType, count }));
  return summary;
}
