-- emit_webhook_event (migration 0022) stores the event's mode from its data, as WebhookEvents.emit does.
CREATE OR REPLACE FUNCTION public.emit_webhook_event(p_id text, p_account_id integer, p_type text, p_data jsonb, p_created_at timestamp with time zone, p_dedupe_key text)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
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
$function$;
