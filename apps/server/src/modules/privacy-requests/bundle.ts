import type { VerificationDetail } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { csvTextCell } from '../../lib/csv.ts';
import { detailRowOf, toDetailDto } from '../verifications/index.ts';
import type { MatchIds } from './matches.ts';

const { verificationAttempts, revocations, webhookEvents, webhookDeliveries, consentVersions } = schema;

/** Rows read per statement. */
const CHUNK = 1000;

type Cell = string | number | boolean | null;

/** One CSV: a header row (English, as every export of the app) and its rows, each text cell formula-safe (lib/csv). */
function csvOf(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const line = (cells: readonly Cell[]) =>
    cells
      .map((cell) => (typeof cell === 'string' || cell === null ? csvTextCell(cell) : String(cell)))
      .join(',');
  return `${[line(header), ...rows.map(line)].join('\r\n')}\r\n`;
}

async function inChunks<T, Id>(ids: readonly Id[], read: (chunk: Id[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < ids.length; start += CHUNK)
    out.push(...(await read(ids.slice(start, start + CHUNK))));
  return out;
}

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/** A verification as the bundle gives it: its detail, and the consent text it was given, in the form's language. */
type BundledVerification = VerificationDetail & { consentText: string | null };

/**
 * The access bundle (issue #37 item 3): a ZIP of `data.json` (every match: verifications as the detail shows them,
 * codes sent, revocations, webhook events and their deliveries) and one CSV per kind. Texts the person was shown (the
 * consent text) are in the form's language, as shown; the CSVs' headers are English, as the app's exports are. Rows
 * removed since the request was answered (purged, redacted) are simply not there.
 */
export async function buildBundle(db: Db, accountId: number, ids: MatchIds): Promise<Uint8Array> {
  const details: VerificationDetail[] = [];
  for (const id of ids.verifications) {
    const row = await detailRowOf(db, accountId, id);
    if (row) details.push(toDetailDto(row));
  }
  const versionIds = [
    ...new Set(details.flatMap((detail) => (detail.consent ? [detail.consent.versionId] : []))),
  ];
  const texts = new Map(
    (
      await inChunks(versionIds, (chunk) =>
        db
          .select({ id: consentVersions.id, text: consentVersions.text })
          .from(consentVersions)
          .where(inArray(consentVersions.id, chunk)),
      )
    ).map((version) => [version.id, version.text]),
  );
  const verifications: BundledVerification[] = details.map((detail) => ({
    ...detail,
    consentText: detail.consent ? (texts.get(detail.consent.versionId) ?? null) : null,
  }));

  const attempts = await inChunks(ids.attempts, (chunk) =>
    db
      .select({
        id: verificationAttempts.id,
        verificationId: verificationAttempts.verificationId,
        cellPhone: verificationAttempts.cellPhone,
        email: verificationAttempts.email,
        method: verificationAttempts.method,
        status: verificationAttempts.status,
        ip: verificationAttempts.ip,
        userAgent: verificationAttempts.userAgent,
        createdAt: verificationAttempts.createdAt,
        sentAt: verificationAttempts.sentAt,
        verifiedAt: verificationAttempts.verifiedAt,
      })
      .from(verificationAttempts)
      .where(and(eq(verificationAttempts.accountId, accountId), inArray(verificationAttempts.id, chunk)))
      .orderBy(asc(verificationAttempts.createdAt)),
  );
  const revocationRows = await inChunks(ids.revocations, (chunk) =>
    db
      .select({
        id: revocations.id,
        channel: revocations.channel,
        phone: revocations.phone,
        email: revocations.email,
        words: revocations.words,
        status: revocations.status,
        receivedAt: revocations.receivedAt,
        deadline: revocations.deadline,
        acknowledgedAt: revocations.acknowledgedAt,
      })
      .from(revocations)
      .where(and(eq(revocations.accountId, accountId), inArray(revocations.id, chunk)))
      .orderBy(asc(revocations.receivedAt)),
  );
  const events = await inChunks(ids.webhookEvents, (chunk) =>
    db
      .select({
        id: webhookEvents.id,
        type: webhookEvents.type,
        createdAt: webhookEvents.createdAt,
        data: webhookEvents.data,
      })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.accountId, accountId), inArray(webhookEvents.id, chunk)))
      .orderBy(asc(webhookEvents.createdAt)),
  );
  const deliveries = await inChunks(ids.deliveries, (chunk) =>
    db
      .select({
        id: webhookDeliveries.id,
        eventId: webhookDeliveries.eventId,
        endpointId: webhookDeliveries.endpointId,
        status: webhookDeliveries.status,
        attemptCount: webhookDeliveries.attemptCount,
        lastAttemptAt: webhookDeliveries.lastAttemptAt,
        createdAt: webhookDeliveries.createdAt,
      })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.accountId, accountId), inArray(webhookDeliveries.id, chunk)))
      .orderBy(asc(webhookDeliveries.id)),
  );

  const data = {
    verifications,
    attempts: attempts.map((a) => ({
      ...a,
      createdAt: a.createdAt.toISOString(),
      sentAt: iso(a.sentAt),
      verifiedAt: iso(a.verifiedAt),
    })),
    revocations: revocationRows.map((r) => ({
      ...r,
      receivedAt: r.receivedAt.toISOString(),
      acknowledgedAt: iso(r.acknowledgedAt),
    })),
    webhookEvents: events.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
    deliveries: deliveries.map((d) => ({
      ...d,
      lastAttemptAt: iso(d.lastAttemptAt),
      createdAt: d.createdAt.toISOString(),
    })),
  };

  const files: Record<string, Uint8Array> = {
    'data.json': strToU8(`${JSON.stringify(data, null, 2)}\n`),
    'verifications.csv': strToU8(
      csvOf(
        [
          'id',
          'created',
          'verified_at',
          'form',
          'method',
          'phone',
          'email',
          'ip',
          'user_agent',
          'consent_language',
          'consent_text',
          'test',
        ],
        verifications.map((v) => [
          v.id,
          v.created,
          v.verifiedAt,
          v.verifyFormName,
          v.verificationMethod,
          v.cellPhone,
          v.email,
          v.ip,
          v.userAgent,
          v.consent?.language ?? null,
          v.consentText,
          v.isTest,
        ]),
      ),
    ),
    'attempts.csv': strToU8(
      csvOf(
        [
          'id',
          'verification_id',
          'created',
          'sent_at',
          'verified_at',
          'method',
          'phone',
          'email',
          'status',
          'ip',
          'user_agent',
        ],
        data.attempts.map((a) => [
          a.id,
          a.verificationId,
          a.createdAt,
          a.sentAt,
          a.verifiedAt,
          a.method,
          a.cellPhone,
          a.email,
          a.status,
          a.ip,
          a.userAgent,
        ]),
      ),
    ),
    'revocations.csv': strToU8(
      csvOf(
        ['id', 'received_at', 'channel', 'phone', 'email', 'words', 'status', 'deadline', 'acknowledged_at'],
        data.revocations.map((r) => [
          r.id,
          r.receivedAt,
          r.channel,
          r.phone,
          r.email,
          r.words,
          r.status,
          r.deadline,
          r.acknowledgedAt,
        ]),
      ),
    ),
    'webhook-events.csv': strToU8(
      csvOf(
        ['id', 'created', 'type', 'data'],
        data.webhookEvents.map((e) => [e.id, e.createdAt, e.type, JSON.stringify(e.data)]),
      ),
    ),
    'deliveries.csv': strToU8(
      csvOf(
        ['id', 'event_id', 'endpoint_id', 'status', 'attempts', 'last_attempt_at', 'created'],
        data.deliveries.map((d) => [
          d.id,
          d.eventId,
          d.endpointId,
          d.status,
          d.attemptCount,
          d.lastAttemptAt,
          d.createdAt,
        ]),
      ),
    ),
  };
  return zipSync(files, { level: 6 });
}
