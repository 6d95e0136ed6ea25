ALTER TABLE "verification_attempts" ADD COLUMN "sealed_code" text;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "send_state" text;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "send_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "send_tries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "next_trigger" text DEFAULT 'scheduled' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "claims" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "verification_attempts_send_due_idx" ON "verification_attempts" USING btree ("send_after") WHERE "verification_attempts"."send_after" is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("due_at") WHERE "webhook_deliveries"."due_at" is not null;--> statement-breakpoint
-- Issue #34 item 4 (ADR 33): nothing of ours writes pg-boss's tables. The two jobs SQL enqueued (a code's send, a
-- webhook delivery's attempt) are claimed from their own rows instead: an attempt owes its send while `send_after` is
-- set (the code sealed in `sealed_code`), a delivery its next attempt while `due_at` is set. enqueue_job goes.
-- Item 2: emit_webhook_event is the one home of the emit rule, one function (no overload): WebhookEvents.emit calls
-- it (with the endpoint for "Send test event"), and so do issue_verification_code and judge_verification_code,
-- counting the deliveries it answers.

-- Work queued through pg-boss before this version (a send or an attempt still owed at the upgrade) moves onto its
-- own rows: the one read of pg-boss's table that remains, here, once, and only where its schema exists (a database
-- migrated before its first start has none). The old jobs are left to pg-boss, which drops them with their queues'
-- retention: no worker asks for them any more.
DO $$
BEGIN
  IF to_regclass('pgboss.job') IS NOT NULL THEN
    UPDATE verification_attempts a
    SET sealed_code = j.data->>'sealedCode', send_state = 'queued', send_after = now()
    FROM pgboss.job j
    WHERE j.name = 'send-verification-code' AND j.state IN ('created', 'retry', 'active')
      AND a.id = j.data->>'attemptId' AND a.sent_at IS NULL;
    UPDATE webhook_deliveries d SET due_at = COALESCE(d.next_attempt_at, now())
    FROM pgboss.job j
    WHERE j.name = 'deliver-webhook' AND j.state IN ('created', 'retry', 'active')
      AND d.id = (j.data->>'deliveryId')::bigint AND d.status IN ('pending', 'retrying');
  END IF;
END
$$;
