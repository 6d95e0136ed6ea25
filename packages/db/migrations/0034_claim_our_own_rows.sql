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
$$;--> statement-breakpoint

-- The emit (modules/webhooks/events.ts calls it; so do the two functions below): the event (once per account and
-- dedupe key, its mode from its data), and a delivery, due now, for every enabled endpoint of the account that wants
-- its type, or only for p_endpoint_id ("Send test event": whatever types it wants, even while disabled; its attempt
-- recorded as a test). Answers the event's id (null when the dedupe key was used: nothing stored) and the deliveries.
CREATE FUNCTION "emit_webhook_event"(p_id text, p_account_id integer, p_type text, p_data jsonb,
  p_created_at timestamptz, p_dedupe_key text, p_endpoint_id integer)
RETURNS TABLE (emitted_event_id text, delivery_ids bigint[]) LANGUAGE sql AS $$
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
  SELECT (SELECT id FROM event), COALESCE((SELECT array_agg(id) FROM delivery), '{}'::bigint[])
$$;--> statement-breakpoint

-- One function per name: the 6-argument form goes; issue_verification_code and judge_verification_code (below) call
-- the one above, counting its deliveries.
DROP FUNCTION "emit_webhook_event"(text, integer, text, jsonb, timestamptz, text);--> statement-breakpoint

-- A code send (modules/public-verify/service.ts, issueCode), by the rules of ADR 12, in one transaction:
--   1. The locks: the form-and-number's (spacing; hashtext, the key it always had), then every limit's bucket
--      (hashtextextended, as lib/rate-limit.ts) in byte order. Only the spacing lock is ever held while waiting for
--      another, and nobody waits for it while holding a bucket, so no two sends can deadlock.
--   2. The spacing (p_resend_after_ms between codes to one number through one form), checked first: an early retry,
--      or the losers of a burst for one number, cost no limit.
--   3. The limits in p_limits' order ([{bucket, limit, windowMs}]): the first exhausted one refuses (its index and
--      retry time answered, its text chosen by the caller); else this send is counted in every bucket.
--   4. Older pending codes of the form and number replaced; the attempt inserted, its page view kept only when it is
--      a view of this form (another form's or an unknown id becomes null, so a stale tab still gets its code).
--   5. Its delivery history: `queued`, or for a test number (p_test_delivery {status, errorCode}) the simulated one,
--      queued → sent → the number's outcome, with the message id `test:<attempt>`; the row shows where it ended.
--   6. The webhook events (p_events [{id, type, data, dedupeKey}], built by the caller from the row it knows this
--      inserts), their deliveries due at once, and the code's send (p_job_data's sealedCode; none for a test
--      number) owed by the attempt itself: the code-send worker claims it from the row (ADR 33). p_job_name is kept
--      for the caller's signature and no longer read.
-- Refusals write nothing. Answers one row: outcome 'sent' | 'too_soon' | 'limited', wait_ms (too soon: until the
-- spacing has passed; limited: until the limit-th newest event leaves its window), refused (1-based index into
-- p_limits) and deliveries (webhook deliveries made).
CREATE OR REPLACE FUNCTION "issue_verification_code"(
  p_attempt_id text, p_account_id integer, p_form_id integer, p_cell_phone text, p_method text, p_email text,
  p_external_ref_id text, p_code_hash text, p_ip text, p_user_agent text, p_source text, p_api_key_id integer,
  p_consent_version_id text, p_consent_version integer, p_consent_language text, p_consent_sha256 text,
  p_page_view_id text, p_now timestamptz, p_expires_at timestamptz, p_resend_after_ms bigint, p_limits jsonb,
  p_test_delivery jsonb, p_events jsonb, p_job_name text, p_job_data jsonb
) RETURNS TABLE (outcome text, wait_ms bigint, refused integer, deliveries integer) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_bucket text;
  v_latest timestamptz;
  v_rule record;
  v_limiting timestamptz;
  v_event jsonb;
  v_deliveries integer := 0;
  v_test boolean := p_test_delivery IS NOT NULL;
  v_message_id text := CASE WHEN p_test_delivery IS NOT NULL THEN 'test:' || p_attempt_id END;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('code-send:' || p_form_id || ':' || p_cell_phone));
  FOR v_bucket IN
    SELECT b FROM (SELECT DISTINCT r->>'bucket' AS b FROM jsonb_array_elements(p_limits) r) buckets
    ORDER BY b COLLATE "C"
  LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended(v_bucket, 0));
  END LOOP;

  SELECT a.created_at INTO v_latest
  FROM verification_attempts a
  WHERE a.verify_form_id = p_form_id AND a.cell_phone = p_cell_phone
  ORDER BY a.created_at DESC
  LIMIT 1;
  IF v_latest IS NOT NULL AND v_latest + p_resend_after_ms * interval '1 millisecond' > p_now THEN
    RETURN QUERY SELECT 'too_soon'::text,
      ceil(extract(epoch FROM v_latest - p_now) * 1000)::bigint + p_resend_after_ms, NULL::integer, 0;
    RETURN;
  END IF;

  FOR v_rule IN
    SELECT r->>'bucket' AS bucket, (r->>'limit')::integer AS max_events, (r->>'windowMs')::bigint AS window_ms,
      n::integer AS n
    FROM jsonb_array_elements(p_limits) WITH ORDINALITY AS rules(r, n)
    ORDER BY n
  LOOP
    -- Only the limit-th newest event in the window decides (lib/rate-limit.ts, checkWith).
    SELECT e.created_at INTO v_limiting
    FROM rate_limit_events e
    WHERE e.bucket = v_rule.bucket AND e.created_at > p_now - v_rule.window_ms * interval '1 millisecond'
    ORDER BY e.created_at DESC
    OFFSET greatest(0, v_rule.max_events - 1)
    LIMIT 1;
    IF v_rule.max_events <= 0 OR v_limiting IS NOT NULL THEN
      RETURN QUERY SELECT 'limited'::text,
        CASE WHEN v_limiting IS NULL THEN v_rule.window_ms
          ELSE ceil(extract(epoch FROM v_limiting - p_now) * 1000)::bigint + v_rule.window_ms END,
        v_rule.n, 0;
      RETURN;
    END IF;
  END LOOP;
  INSERT INTO rate_limit_events (bucket, created_at)
  SELECT r->>'bucket', p_now FROM jsonb_array_elements(p_limits) WITH ORDINALITY AS rules(r, n) ORDER BY n;

  UPDATE verification_attempts SET status = 'replaced'
  WHERE verify_form_id = p_form_id AND cell_phone = p_cell_phone AND status = 'pending';
  INSERT INTO verification_attempts (id, account_id, verify_form_id, cell_phone, method, email, external_ref_id,
    code_hash, is_test, ip, user_agent, source, api_key_id, consent_version_id, consent_version, consent_language,
    consent_sha256, page_view_id, created_at, expires_at, sent_at, provider_message_id, delivery_status,
    delivery_error_code, sealed_code, send_state, send_after)
  VALUES (p_attempt_id, p_account_id, p_form_id, p_cell_phone, p_method, p_email, p_external_ref_id, p_code_hash,
    v_test, p_ip, p_user_agent, p_source, p_api_key_id, p_consent_version_id, p_consent_version, p_consent_language,
    p_consent_sha256,
    (SELECT v.id FROM form_page_views v WHERE v.id = p_page_view_id AND v.verify_form_id = p_form_id),
    p_now, p_expires_at, CASE WHEN v_test THEN p_now END, v_message_id,
    COALESCE(p_test_delivery->>'status', 'queued'), p_test_delivery->>'errorCode',
    p_job_data->>'sealedCode', CASE WHEN p_job_data IS NOT NULL THEN 'queued' END,
    CASE WHEN p_job_data IS NOT NULL THEN now() END);

  INSERT INTO code_delivery_events (attempt_id, status, at, error_code, provider_message_id)
  VALUES (p_attempt_id, 'queued', p_now, NULL, NULL);
  IF v_test THEN
    INSERT INTO code_delivery_events (attempt_id, status, at, error_code, provider_message_id)
    VALUES (p_attempt_id, 'sent', p_now, NULL, v_message_id);
    IF p_test_delivery->>'status' <> 'sent' THEN
      INSERT INTO code_delivery_events (attempt_id, status, at, error_code, provider_message_id)
      VALUES (p_attempt_id, p_test_delivery->>'status', p_now, p_test_delivery->>'errorCode', v_message_id);
    END IF;
  END IF;

  FOR v_event IN
    SELECT e FROM jsonb_array_elements(p_events) WITH ORDINALITY AS events(e, n) ORDER BY n
  LOOP
    v_deliveries := v_deliveries + (SELECT cardinality(e.delivery_ids) FROM emit_webhook_event(v_event->>'id',
      p_account_id, v_event->>'type', v_event->'data', p_now, v_event->>'dedupeKey', NULL::integer) e);
  END LOOP;

  RETURN QUERY SELECT 'sent'::text, 0::bigint, NULL::integer, v_deliveries;
END
$$;--> statement-breakpoint

-- judge_verification_code (migration 0029) unchanged but for its emits, which call the 7-argument emit_webhook_event.
CREATE OR REPLACE FUNCTION "judge_verification_code"(
  p_attempt_id text, p_correct boolean, p_now timestamptz, p_ip text, p_user_agent text, p_bucket text,
  p_limit integer, p_window_ms bigint, p_max_tries integer, p_form_name text, p_form_category text,
  p_event_id text, p_event_data jsonb
) RETURNS TABLE (outcome text, retry_ms bigint, state text, tries_left integer, verification_id bigint,
  deliveries integer) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_limiting timestamptz;
  v_account_id integer;
  v_verification_id bigint;
  v_wrong_tries integer;
  v_status text;
  v_deliveries integer := 0;
BEGIN
  IF p_bucket IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_bucket, 0));
    SELECT e.created_at INTO v_limiting
    FROM rate_limit_events e
    WHERE e.bucket = p_bucket AND e.created_at > p_now - p_window_ms * interval '1 millisecond'
    ORDER BY e.created_at DESC
    OFFSET greatest(0, p_limit - 1)
    LIMIT 1;
    IF p_limit <= 0 OR v_limiting IS NOT NULL THEN
      RETURN QUERY SELECT 'limited'::text,
        CASE WHEN v_limiting IS NULL THEN p_window_ms
          ELSE ceil(extract(epoch FROM v_limiting - p_now) * 1000)::bigint + p_window_ms END,
        NULL::text, NULL::integer, NULL::bigint, 0;
      RETURN;
    END IF;
  END IF;

  IF p_correct THEN
    -- One SQL statement: the attempt's foreign key to its verification is checked at its end, once both exist.
    WITH won AS (
      UPDATE verification_attempts
      SET status = 'verified', verified_at = p_now, code_entered = true,
          verification_id = nextval(pg_get_serial_sequence('verifications', 'id'))
      WHERE id = p_attempt_id AND status = 'pending' AND expires_at > p_now AND wrong_tries < p_max_tries
      RETURNING *
    ), entry AS (
      INSERT INTO code_entries (attempt_id, at, correct, ip, user_agent)
      SELECT p_attempt_id, p_now, true, p_ip, p_user_agent FROM won
    ), verification AS (
      INSERT INTO verifications (id, account_id, verify_form_id, cell_phone, external_ref_id, verify_form_name,
        verify_form_category, verification_method, email, is_test, code_sent_at, verified_at, attempts, ip,
        user_agent, created_at, source, consent_version_id, consent_version, consent_language, consent_sha256)
      OVERRIDING SYSTEM VALUE
      SELECT won.verification_id, won.account_id, won.verify_form_id, won.cell_phone, won.external_ref_id,
        p_form_name, p_form_category, won.method, won.email, won.is_test,
        -- The job sets sent_at once the provider took the message; before that (or for a test number, which sends
        -- nothing) the request time stands in.
        coalesce(won.sent_at, won.created_at), p_now, won.wrong_tries + 1, p_ip, p_user_agent, p_now, won.source,
        won.consent_version_id, won.consent_version, won.consent_language, won.consent_sha256
      FROM won
      RETURNING id, account_id
    )
    SELECT v.id, v.account_id INTO v_verification_id, v_account_id FROM verification v;
  ELSE
    UPDATE verification_attempts
    SET wrong_tries = wrong_tries + 1, code_entered = true,
        status = CASE WHEN wrong_tries + 1 >= p_max_tries THEN 'locked' ELSE status END
    WHERE id = p_attempt_id AND status = 'pending' AND expires_at > p_now AND wrong_tries < p_max_tries
    RETURNING account_id, wrong_tries, status INTO v_account_id, v_wrong_tries, v_status;
  END IF;
  IF v_account_id IS NULL THEN
    -- Nothing was judged: why the attempt takes no code (a fifth try held by another request counts as locked).
    RETURN QUERY SELECT 'closed'::text, NULL::bigint,
      coalesce((SELECT CASE WHEN a.status <> 'pending' THEN a.status WHEN a.expires_at <= p_now THEN 'expired' END
        FROM verification_attempts a WHERE a.id = p_attempt_id), 'locked'),
      NULL::integer, NULL::bigint, 0;
    RETURN;
  END IF;

  IF p_correct THEN
    v_deliveries := (SELECT cardinality(e.delivery_ids) FROM emit_webhook_event(p_event_id, v_account_id,
      'verification.approved', p_event_data, p_now, NULL, NULL::integer) e);
    RETURN QUERY SELECT 'approved'::text, NULL::bigint, NULL::text, NULL::integer, v_verification_id, v_deliveries;
    RETURN;
  END IF;

  INSERT INTO code_entries (attempt_id, at, correct, ip, user_agent)
  VALUES (p_attempt_id, p_now, false, p_ip, p_user_agent);
  IF p_bucket IS NOT NULL THEN
    INSERT INTO rate_limit_events (bucket, created_at) VALUES (p_bucket, p_now);
  END IF;
  IF v_status = 'locked' THEN
    v_deliveries := (SELECT cardinality(e.delivery_ids) FROM emit_webhook_event(p_event_id, v_account_id,
      'verification.failed', p_event_data, p_now, NULL, NULL::integer) e);
  END IF;
  RETURN QUERY SELECT 'incorrect'::text, NULL::bigint, NULL::text, p_max_tries - v_wrong_tries, NULL::bigint,
    v_deliveries;
END
$$;
--> statement-breakpoint

DROP FUNCTION "enqueue_job"(text, jsonb);
