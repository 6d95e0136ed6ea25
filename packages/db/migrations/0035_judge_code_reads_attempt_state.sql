-- Issue #34 (ADR 35): judge_verification_code (migration 0029) reads the attempt's state through attempt_is_open and
-- attempt_status_at (migration attempt_state), the one SQL definition of "expired", instead of three predicates of its
-- own. Nothing else changes: the whole function as 0029 wrote it, those three expressions replaced.
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
      WHERE id = p_attempt_id AND attempt_is_open(status, expires_at, p_now) AND wrong_tries < p_max_tries
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
    WHERE id = p_attempt_id AND attempt_is_open(status, expires_at, p_now) AND wrong_tries < p_max_tries
    RETURNING account_id, wrong_tries, status INTO v_account_id, v_wrong_tries, v_status;
  END IF;
  IF v_account_id IS NULL THEN
    -- Nothing was judged: why the attempt takes no code (a fifth try held by another request counts as locked).
    RETURN QUERY SELECT 'closed'::text, NULL::bigint,
      coalesce((SELECT nullif(attempt_status_at(a.status, a.expires_at, p_now), 'pending')
        FROM verification_attempts a WHERE a.id = p_attempt_id), 'locked'),
      NULL::integer, NULL::bigint, 0;
    RETURN;
  END IF;

  IF p_correct THEN
    v_deliveries := emit_webhook_event(p_event_id, v_account_id, 'verification.approved', p_event_data, p_now, NULL);
    RETURN QUERY SELECT 'approved'::text, NULL::bigint, NULL::text, NULL::integer, v_verification_id, v_deliveries;
    RETURN;
  END IF;

  INSERT INTO code_entries (attempt_id, at, correct, ip, user_agent)
  VALUES (p_attempt_id, p_now, false, p_ip, p_user_agent);
  IF p_bucket IS NOT NULL THEN
    INSERT INTO rate_limit_events (bucket, created_at) VALUES (p_bucket, p_now);
  END IF;
  IF v_status = 'locked' THEN
    v_deliveries := emit_webhook_event(p_event_id, v_account_id, 'verification.failed', p_event_data, p_now, NULL);
  END IF;
  RETURN QUERY SELECT 'incorrect'::text, NULL::bigint, NULL::text, p_max_tries - v_wrong_tries, NULL::bigint,
    v_deliveries;
END
$$;
