-- The emit (modules/webhooks/events.ts calls it; so do the two functions below): the event (once per account and
-- dedupe key, its mode from its data), and a delivery, due now, for every enabled endpoint of the account that wants
-- its type, or only for p_endpoint_id ("Send test event": whatever types it wants, even while disabled; its attempt
-- recorded as a test). Answers the event's id (null when the dedupe key was used: nothing stored) and the deliveries.
-- PL/pgSQL, not SQL: a SQL function that is not inlined (this one writes) is planned again at every call, opening
-- both tables and their indexes each time; PL/pgSQL keeps the statement's plan for the session (2.7 emits per code
-- sent and checked: the consumer path's database CPU per request +39 % as a SQL function, issue #34).
CREATE OR REPLACE FUNCTION "emit_webhook_event"(p_id text, p_account_id integer, p_type text, p_data jsonb,
  p_created_at timestamptz, p_dedupe_key text, p_endpoint_id integer)
RETURNS TABLE (emitted_event_id text, delivery_ids bigint[]) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY
  WITH event AS (
    INSERT INTO webhook_events (id, account_id, type, data, created_at, dedupe_key, livemode)
    VALUES (p_id, p_account_id, p_type, p_data, p_created_at, p_dedupe_key,
      COALESCE((p_data->>'livemode')::boolean, true))
    ON CONFLICT (account_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
    RETURNING id, account_id, type, created_at
  ), delivery AS (
    INSERT INTO webhook_deliveries (account_id, event_id, endpoint_id, event_created_at, due_at, next_trigger)
    SELECT event.account_id, event.id, endpoint.id, event.created_at, now(),
      CASE WHEN p_endpoint_id IS NULL THEN 'scheduled' ELSE 'test' END
    FROM event JOIN webhook_endpoints endpoint ON endpoint.account_id = event.account_id
    WHERE CASE WHEN p_endpoint_id IS NULL
            THEN endpoint.enabled AND endpoint.event_types && ARRAY[event.type, '*']
            ELSE endpoint.id = p_endpoint_id END
    RETURNING id
  )
  SELECT (SELECT id FROM event), COALESCE((SELECT array_agg(id) FROM delivery), '{}'::bigint[]);
END
$$;
