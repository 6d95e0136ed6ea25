import type { PrivacyRequestMatches } from '@veriform/contracts';
import { type Db, schema, type Tx } from '@veriform/db';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { z } from 'zod';
import { rowsOf } from '../../lib/rows.ts';
import { heldBy } from '../legal-holds/index.ts';

const { verifications, verificationAttempts, revocations, webhookEvents, webhookDeliveries } = schema;

/** What a request names: its account, its mode (a test key's reaches test data only, ADR 29), E.164 and addresses. */
export type Identifiers = {
  accountId: number;
  isTest: boolean;
  phones: readonly string[];
  /** Lower-case. */
  emails: readonly string[];
};

/** `column in (values)`, false for none. */
const inList = (column: SQLWrapper, values: readonly string[]): SQL =>
  values.length === 0
    ? sql`false`
    : sql`${column} in (${sql.join(
        values.map((value) => sql`${value}`),
        sql`, `,
      )})`;

/** A row of a table with a number and an address names the person (addresses compared lower-case). */
const naming = (phone: SQLWrapper, email: SQLWrapper, who: Identifiers): SQL =>
  sql`(${inList(phone, who.phones)} or ${inList(sql`lower(${email})`, who.emails)})`;

/**
 * The one rule of what a request matches (issue #37 item 3, "find everything"): the account's verifications, attempts
 * (codes sent) and revocations of the request's mode whose number or address is one it names; the webhook events whose
 * data names one (`to`, `phone`, `email`: verification and revocation events), and those events' deliveries. Redacted
 * evidence names a masked number and no longer matches.
 */
export const matching = {
  verifications: (who: Identifiers): SQL =>
    sql`${verifications.accountId} = ${who.accountId} and ${verifications.isTest} = ${who.isTest} and ${naming(
      verifications.cellPhone,
      verifications.email,
      who,
    )}`,
  attempts: (who: Identifiers): SQL =>
    sql`${verificationAttempts.accountId} = ${who.accountId} and ${verificationAttempts.isTest} = ${who.isTest} and ${naming(
      verificationAttempts.cellPhone,
      verificationAttempts.email,
      who,
    )}`,
  revocations: (who: Identifiers): SQL =>
    sql`${revocations.accountId} = ${who.accountId} and ${revocations.isTest} = ${who.isTest} and ${naming(
      revocations.phone,
      revocations.email,
      who,
    )}`,
  webhookEvents: (who: Identifiers): SQL =>
    sql`${webhookEvents.accountId} = ${who.accountId} and ${webhookEvents.livemode} = ${!who.isTest} and (${inList(
      sql`${webhookEvents.data}->>'to'`,
      who.phones,
    )} or ${inList(sql`${webhookEvents.data}->>'phone'`, who.phones)} or ${inList(
      sql`lower(${webhookEvents.data}->>'email')`,
      who.emails,
    )})`,
};

const countsSchema = z.object({
  verifications: z.coerce.number(),
  attempts: z.coerce.number(),
  revocations: z.coerce.number(),
  webhook_events: z.coerce.number(),
  deliveries: z.coerce.number(),
});

/** How many rows of each kind hold the identifiers, in one statement. */
export async function countMatches(reader: Db | Tx, who: Identifiers): Promise<PrivacyRequestMatches> {
  const answer = await reader.execute(sql`
    select
      (select count(*) from ${verifications} where ${matching.verifications(who)}) as verifications,
      (select count(*) from ${verificationAttempts} where ${matching.attempts(who)}) as attempts,
      (select count(*) from ${revocations} where ${matching.revocations(who)}) as revocations,
      (select count(*) from ${webhookEvents} where ${matching.webhookEvents(who)}) as webhook_events,
      (select count(*) from ${webhookDeliveries} where ${webhookDeliveries.accountId} = ${who.accountId}
        and ${webhookDeliveries.eventId} in (select ${webhookEvents.id} from ${webhookEvents} where ${matching.webhookEvents(who)})) as deliveries`);
  const [row] = rowsOf(answer);
  const counts = countsSchema.parse(row);
  return {
    verifications: counts.verifications,
    attempts: counts.attempts,
    revocations: counts.revocations,
    webhookEvents: counts.webhook_events,
    deliveries: counts.deliveries,
  };
}

/** The ids of every match, for the access bundle (kept in the answer, never shown: ADR 47). */
export const matchIdsSchema = z.object({
  verifications: z.array(z.number()),
  attempts: z.array(z.string()),
  revocations: z.array(z.string()),
  webhookEvents: z.array(z.string()),
  deliveries: z.array(z.number()),
});
export type MatchIds = z.infer<typeof matchIdsSchema>;

const idRows = z.array(z.object({ id: z.union([z.string(), z.number()]) }));
const numbers = (answer: unknown) => idRows.parse(rowsOf(answer)).map((row) => Number(row.id));
const texts = (answer: unknown) => idRows.parse(rowsOf(answer)).map((row) => String(row.id));

export async function matchIds(reader: Db | Tx, who: Identifiers): Promise<MatchIds> {
  const eventIds = texts(
    await reader.execute(
      sql`select ${webhookEvents.id} as id from ${webhookEvents} where ${matching.webhookEvents(who)} order by ${webhookEvents.createdAt}, ${webhookEvents.id}`,
    ),
  );
  return {
    verifications: numbers(
      await reader.execute(
        sql`select ${verifications.id} as id from ${verifications} where ${matching.verifications(who)} order by ${verifications.id}`,
      ),
    ),
    attempts: texts(
      await reader.execute(
        sql`select ${verificationAttempts.id} as id from ${verificationAttempts} where ${matching.attempts(who)} order by ${verificationAttempts.createdAt}, ${verificationAttempts.id}`,
      ),
    ),
    revocations: texts(
      await reader.execute(
        sql`select ${revocations.id} as id from ${revocations} where ${matching.revocations(who)} order by ${revocations.receivedAt}, ${revocations.id}`,
      ),
    ),
    webhookEvents: eventIds,
    deliveries:
      eventIds.length === 0
        ? []
        : numbers(
            await reader.execute(
              sql`select ${webhookDeliveries.id} as id from ${webhookDeliveries} where ${webhookDeliveries.accountId} = ${who.accountId} and ${inList(webhookDeliveries.eventId, eventIds)} order by ${webhookDeliveries.id}`,
            ),
          ),
  };
}

const verificationRows = z.array(z.object({ id: z.coerce.number(), held_by: z.array(z.string()) }));

/**
 * The matching verifications, each with the legal holds that reach it now (held.ts's rule, `heldBy`: asked here and
 * nowhere else in this module); empty when none. With `only`, that one verification if it still matches (the holds
 * of one a redaction refused, without reading every match again).
 */
export async function matchingVerifications(
  reader: Db | Tx,
  who: Identifiers,
  only?: number,
): Promise<{ id: number; heldBy: string[] }[]> {
  const holds = heldBy({
    accountId: verifications.accountId,
    verifyFormId: verifications.verifyFormId,
    cellPhone: verifications.cellPhone,
    email: verifications.email,
    id: verifications.id,
  });
  const answer = await reader.execute(
    sql`select ${verifications.id} as id, ${holds} as held_by
      from ${verifications} where ${matching.verifications(who)}
      ${only === undefined ? sql`` : sql`and ${verifications.id} = ${only}`}
      order by ${verifications.id}`,
  );
  return verificationRows.parse(rowsOf(answer)).map((row) => ({ id: row.id, heldBy: row.held_by }));
}
