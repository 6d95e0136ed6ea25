ALTER TABLE "webhook_events" ADD COLUMN "livemode" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "verification_attempts_account_test_created_idx" ON "verification_attempts" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "verification_attempts"."is_test";--> statement-breakpoint
CREATE INDEX "verifications_account_test_created_idx" ON "verifications" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "verifications"."is_test";--> statement-breakpoint
CREATE INDEX "webhook_events_account_test_created_idx" ON "webhook_events" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE NOT "webhook_events"."livemode";--> statement-breakpoint
-- Events stored before issue #33: a verification's `data` said `test` (its number was a test number) before it said
-- `livemode`.
UPDATE "webhook_events" SET "livemode" = false WHERE ("data"->>'test')::boolean IS TRUE;--> statement-breakpoint
-- emit_webhook_event (migration 0022) stores the event's mode from its data, as WebhookEvents.emit does.
CREATE OR REPLACE FUNCTION "emit_webhook_event"(p_id text, p_account_id integer, p_type text, p_data jsonb,
  p_created_at timestamptz, p_dedupe_key text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_delivery bigint;
  v_count integer := 0;
BEGIN
  FOR v_delivery IN
    WITH event AS (
      INSERT INTO webhook_events (id, account_id, type, data, created_at, dedupe_key, livemode)
      VALUES (p_id, p_account_id, p_type, p_data, p_created_at, p_dedupe_key,
        COALESCE((p_data->>'livemode')::boolean, true))
      ON CONFLICT (account_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
      RETURNING id, account_id, type, created_at
    )
    INSERT INTO webhook_deliveries (account_id, event_id, endpoint_id, event_created_at)
    SELECT event.account_id, event.id, endpoint.id, event.created_at
    FROM event JOIN webhook_endpoints endpoint ON endpoint.account_id = event.account_id
    WHERE endpoint.enabled AND endpoint.event_types && ARRAY[event.type, '*']
    RETURNING id
  LOOP
    PERFORM enqueue_job('deliver-webhook',
      jsonb_build_object('deliveryId', v_delivery, 'attempt', 0, 'trigger', 'scheduled'));
    v_count := v_count + 1;
  END LOOP;
  RETURN v_count;
END
$$;
