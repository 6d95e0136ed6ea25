import { type TimelineEvent, timelineEventKinds } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm';

const {
  verifications,
  verificationAttempts,
  formPageViews,
  consentVersions,
  codeDeliveryEvents,
  codeEntries,
} = schema;

type Kind = TimelineEvent['kind'];

/** The channel, as `code_requested`'s detail (the member's words, as the activity log shows it). */
const methodDetail = { sms: 'SMS', email: 'E-mail' } as const;

/** Delivery statuses as timeline lines; `queued` is the request itself (`code_requested`), so it has none. */
const deliveryKind: Record<(typeof schema.codeDeliveryStatuses)[number], Kind | null> = {
  queued: null,
  sent: 'code_sent',
  delivered: 'code_delivered',
  undelivered: 'code_undelivered',
  failed: 'code_failed',
};

/** Where lines of one instant go: the page before any code, the verification after everything. */
const PAGE = -1;
const VERIFIED = Number.MAX_SAFE_INTEGER;
const kindRank = (kind: Kind) => timelineEventKinds.indexOf(kind);

type Line = { event: TimelineEvent; at: number; attemptOrder: number; seq: number };

/**
 * The verification detail's timeline (issue #18 item 6), oldest first: the page opened and the consent it showed (the
 * verifying attempt's page view), every code asked for from that view up to the verification (or the verifying attempt
 * alone when it has no view: API v1, or a page older than views), each code's delivery reports, each code typed, and
 * the verification. Null when the verification is not the account's (→ 404). Empty for a verification no attempt
 * leads to (made before attempts were linked): nothing was recorded. `now` is when it is read; every line is a
 * recorded fact, so none depends on it today.
 *
 * At most four queries whatever the length: the verification with its attempt, view and consent version (one join,
 * the attempt found by form and number on their index); the view's other attempts (by account, form and time on
 * theirs); then the attempts' delivery events and code entries together.
 */
export async function verificationTimeline(
  db: Db,
  accountId: number,
  verificationId: number,
  _now: Date,
): Promise<TimelineEvent[] | null> {
  const [found] = await db
    .select({
      verifiedAt: verifications.verifiedAt,
      createdAt: verifications.createdAt,
      formId: verifications.verifyFormId,
      attemptId: verificationAttempts.id,
      attemptCreatedAt: verificationAttempts.createdAt,
      method: verificationAttempts.method,
      viewId: formPageViews.id,
      viewedAt: formPageViews.createdAt,
      viewLanguage: formPageViews.language,
      consentVersion: consentVersions.version,
    })
    .from(verifications)
    .leftJoin(
      verificationAttempts,
      and(
        eq(verificationAttempts.verifyFormId, verifications.verifyFormId),
        eq(verificationAttempts.cellPhone, verifications.cellPhone),
        eq(verificationAttempts.verificationId, verifications.id),
      ),
    )
    .leftJoin(formPageViews, eq(formPageViews.id, verificationAttempts.pageViewId))
    .leftJoin(consentVersions, eq(consentVersions.id, formPageViews.consentVersionId))
    .where(and(eq(verifications.id, verificationId), eq(verifications.accountId, accountId)))
    .limit(1);
  if (!found) return null;
  if (found.attemptId === null || found.attemptCreatedAt === null || found.method === null) return [];

  const verifiedAt = found.verifiedAt ?? found.createdAt;
  const attempts =
    found.viewId !== null && found.viewedAt !== null
      ? await db
          .select({
            id: verificationAttempts.id,
            createdAt: verificationAttempts.createdAt,
            method: verificationAttempts.method,
          })
          .from(verificationAttempts)
          .where(
            and(
              eq(verificationAttempts.accountId, accountId),
              eq(verificationAttempts.verifyFormId, found.formId),
              gte(verificationAttempts.createdAt, found.viewedAt),
              lte(verificationAttempts.createdAt, verifiedAt),
              eq(verificationAttempts.pageViewId, found.viewId),
            ),
          )
          .orderBy(asc(verificationAttempts.createdAt), asc(verificationAttempts.id))
      : [{ id: found.attemptId, createdAt: found.attemptCreatedAt, method: found.method }];
  // The verifying attempt is always there, even were its clock to disagree with the view's.
  if (!attempts.some((a) => a.id === found.attemptId)) {
    attempts.push({ id: found.attemptId, createdAt: found.attemptCreatedAt, method: found.method });
  }
  const ids = attempts.map((a) => a.id);
  const [deliveries, entries] = await Promise.all([
    db
      .select({
        attemptId: codeDeliveryEvents.attemptId,
        status: codeDeliveryEvents.status,
        at: codeDeliveryEvents.at,
        errorCode: codeDeliveryEvents.errorCode,
        providerMessageId: codeDeliveryEvents.providerMessageId,
      })
      .from(codeDeliveryEvents)
      .where(inArray(codeDeliveryEvents.attemptId, ids))
      .orderBy(asc(codeDeliveryEvents.id)),
    db
      .select({ attemptId: codeEntries.attemptId, at: codeEntries.at, correct: codeEntries.correct })
      .from(codeEntries)
      .where(inArray(codeEntries.attemptId, ids))
      .orderBy(asc(codeEntries.id)),
  ]);

  const order = new Map(ids.map((id, index) => [id, index]));
  const lines: Line[] = [];
  const add = (
    kind: Kind,
    at: Date,
    attemptId: string | null,
    attemptOrder: number,
    more: Partial<Pick<TimelineEvent, 'correct' | 'errorCode' | 'detail'>> = {},
  ) => {
    lines.push({
      event: {
        kind,
        at: at.toISOString(),
        attemptId,
        correct: more.correct ?? null,
        errorCode: more.errorCode ?? null,
        detail: more.detail ?? null,
      },
      at: at.getTime(),
      attemptOrder,
      seq: lines.length,
    });
  };

  if (found.viewedAt !== null) {
    add('page_opened', found.viewedAt, null, PAGE);
    if (found.consentVersion !== null && found.viewLanguage !== null) {
      add('consent_shown', found.viewedAt, null, PAGE, {
        detail: `v${found.consentVersion} (${found.viewLanguage})`,
      });
    }
  }
  for (const attempt of attempts) {
    add('code_requested', attempt.createdAt, attempt.id, order.get(attempt.id) ?? 0, {
      detail: methodDetail[attempt.method],
    });
  }
  for (const delivery of deliveries) {
    const kind = deliveryKind[delivery.status];
    if (kind === null || delivery.attemptId === null) continue;
    add(kind, delivery.at, delivery.attemptId, order.get(delivery.attemptId) ?? 0, {
      errorCode: delivery.errorCode,
      detail: kind === 'code_sent' ? delivery.providerMessageId : null,
    });
  }
  for (const entry of entries) {
    add('code_entered', entry.at, entry.attemptId, order.get(entry.attemptId) ?? 0, {
      correct: entry.correct,
    });
  }
  add('verified', verifiedAt, found.attemptId, VERIFIED);

  // Oldest first; lines of one instant (a test number's, or one clock tick) in the order they happen: the page, then
  // each code's request, reports and entries, then the verification.
  lines.sort(
    (a, b) =>
      a.at - b.at ||
      a.attemptOrder - b.attemptOrder ||
      kindRank(a.event.kind) - kindRank(b.event.kind) ||
      a.seq - b.seq,
  );
  return lines.map((line) => line.event);
}
