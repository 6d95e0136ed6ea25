-- Issue #20 item 2 (ADR 26): a code send is one call of issue_verification_code, one round trip, one short
-- transaction, instead of two transactions and ~20 statements that each waited on Node (and held a pooled connection
-- while it worked between them). Node does what needs no data (parsing, the code, its HMAC, the sealed job payload,
-- the webhook events' data) before the call; the function does everything that needs locks or rows.

-- The job row pg-boss's `send(name, data)` stores (pg-boss 10.4.2, plans.js `insertJob`, no per-job options), for SQL
-- that enqueues in its own transaction. Every queue of jobs/definitions/ sets its retry, expiry and retention policy,
-- so the queue's values are the ones pg-boss would take; the fallbacks are pg-boss's own. `pgboss` is JOB_SCHEMA
-- (jobs/boss.ts). jobs/sql-enqueue.test.ts compares a row stored here with one stored by pg-boss, so an upgrade of
-- pg-boss that changes its insert fails a test rather than the queue.
CREATE FUNCTION "enqueue_job"(p_name text, p_data jsonb) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_id uuid;
BEGIN
  INSERT INTO pgboss.job (id, name, data, priority, start_after, singleton_key, singleton_on, dead_letter, expire_in,
    keep_until, retry_limit, retry_delay, retry_backoff, policy)
  SELECT gen_random_uuid(), q.name, p_data, 0, now(), NULL, NULL, q.dead_letter,
    COALESCE(q.expire_seconds * interval '1s', interval '15 minutes'),
    now() + CAST(COALESCE((q.retention_minutes * 60)::text, '14 days') AS interval),
    COALESCE(q.retry_limit, 2),
    CASE WHEN COALESCE(q.retry_backoff, false) THEN GREATEST(q.retry_delay, 1) ELSE COALESCE(q.retry_delay, 0) END,
    COALESCE(q.retry_backoff, false),
    q.policy
  FROM pgboss.queue q
  WHERE q.name = p_name
  ON CONFLICT DO NOTHING
  RETURNING id INTO v_id;
  -- As JobQueue.enqueue: a job no worker will look for is a programming error, not something to drop quietly.
  IF v_id IS NULL THEN
    RAISE EXCEPTION 'enqueue_job: no queue %', p_name;
  END IF;
  RETURN v_id;
END
$$;--> statement-breakpoint

-- WebhookEvents.emit (modules/webhooks/events.ts) in SQL: the event (once per account and dedupe key), a delivery for
-- every enabled endpoint of the account that wants its type, and each delivery's `deliver-webhook` job, in the
-- caller's transaction. Returns how many deliveries were made (the caller wakes its worker after the commit).
CREATE FUNCTION "emit_webhook_event"(p_id text, p_account_id integer, p_type text, p_data jsonb,
  p_created_at timestamptz, p_dedupe_key text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_delivery bigint;
  v_count integer := 0;
BEGIN
  FOR v_delivery IN
    WITH event AS (
      INSERT INTO webhook_events (id, account_id, type, data, created_at, dedupe_key)
      VALUES (p_id, p_account_id, p_type, p_data, p_created_at, p_dedupe_key)
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
$$;--> statement-breakpoint

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
--      inserts) and the send job (p_job_name, p_job_data; none for a test number), committing with the attempt.
-- Refusals write nothing. Answers one row: outcome 'sent' | 'too_soon' | 'limited', wait_ms (too soon: until the
-- spacing has passed; limited: until the limit-th newest event leaves its window), refused (1-based index into
-- p_limits) and deliveries (webhook deliveries made).
CREATE FUNCTION "issue_verification_code"(
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
    delivery_error_code)
  VALUES (p_attempt_id, p_account_id, p_form_id, p_cell_phone, p_method, p_email, p_external_ref_id, p_code_hash,
    v_test, p_ip, p_user_agent, p_source, p_api_key_id, p_consent_version_id, p_consent_version, p_consent_language,
    p_consent_sha256,
    (SELECT v.id FROM form_page_views v WHERE v.id = p_page_view_id AND v.verify_form_id = p_form_id),
    p_now, p_expires_at, CASE WHEN v_test THEN p_now END, v_message_id,
    COALESCE(p_test_delivery->>'status', 'queued'), p_test_delivery->>'errorCode');

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
    v_deliveries := v_deliveries + emit_webhook_event(v_event->>'id', p_account_id, v_event->>'type',
      v_event->'data', p_now, v_event->>'dedupeKey');
  END LOOP;
  IF p_job_name IS NOT NULL THEN
    PERFORM enqueue_job(p_job_name, p_job_data);
  END IF;

  RETURN QUERY SELECT 'sent'::text, 0::bigint, NULL::integer, v_deliveries;
END
$$;
