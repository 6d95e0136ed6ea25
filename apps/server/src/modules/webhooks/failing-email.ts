import { WEBHOOK_DISABLE_AFTER_DAYS, WEBHOOKS_SETTINGS_PATH } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Mailer } from '../../messaging/email.ts';
import { type WebhookFailingKind, webhookFailingMessage } from '../../messaging/templates/webhook-failing.ts';

const { accounts, memberships, users, webhookEndpoints } = schema;

export type WebhookFailingEmail = { endpointId: number; userId: number; kind: WebhookFailingKind };

/**
 * The e-mail to one owner about a failing endpoint (the send-webhook-failing-email job, queued by the sender in the
 * transaction that warned or disabled). Endpoint, company and owner are read when it is sent: nothing goes to one who
 * is no longer an owner, about an endpoint deleted meanwhile, or about a streak that ended (a success, or the owner
 * enabled the endpoint again) before the e-mail went out.
 */
export async function sendWebhookFailingEmail(
  deps: { db: Db; mailer: Mailer; config: Pick<Config, 'publicUrl'> },
  email: WebhookFailingEmail,
): Promise<'sent' | 'skipped'> {
  const [row] = await deps.db
    .select({
      url: webhookEndpoints.url,
      enabled: webhookEndpoints.enabled,
      failingSince: webhookEndpoints.failingSince,
      accountName: accounts.displayName,
      to: users.email,
    })
    .from(webhookEndpoints)
    .innerJoin(accounts, eq(accounts.id, webhookEndpoints.accountId))
    .innerJoin(
      memberships,
      and(
        eq(memberships.accountId, webhookEndpoints.accountId),
        eq(memberships.userId, email.userId),
        eq(memberships.role, 'owner'),
      ),
    )
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(webhookEndpoints.id, email.endpointId))
    .limit(1);
  if (!row?.failingSince) return 'skipped';
  if (email.kind === 'disabled' ? row.enabled : !row.enabled) return 'skipped';
  await deps.mailer.send(
    webhookFailingMessage({
      to: row.to,
      kind: email.kind,
      accountName: row.accountName,
      endpointUrl: row.url,
      failingSince: row.failingSince,
      disableAfterDays: WEBHOOK_DISABLE_AFTER_DAYS,
      link: `${deps.config.publicUrl}${WEBHOOKS_SETTINGS_PATH}`,
    }),
  );
  return 'sent';
}
