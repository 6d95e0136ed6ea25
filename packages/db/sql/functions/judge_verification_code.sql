-- Issue #20 items 2 and 3 (ADR 26): judging a typed code is one call of judge_verification_code, one commit, instead
-- of four autocommit statements after the attempt's read (the per-IP guess limit's locked step, the try's
-- reservation, the approval or the wrong entry, the limit's unit given back), each planned, executed and flushed to
-- the WAL on its own. The code's comparison stays in Node (timing-safe, against the hash read with the attempt: an
-- attempt's hash never changes); Node passes whether it matched and the webhook event that outcome stores.
--
-- The rules are the ones the statements kept (ADR 12, issue #18):
--   1. The guess limit (p_bucket; none through API v1, whose key has its own request limit): the bucket's advisory
--      lock, then its limit-th newest event in the window decides (rate_limit_wait). The lock is held to the
--      commit, so a burst of guesses from one network is compared one at a time and exactly the limit is compared.
--      Only a wrong code records an event; a right one, or one that found the attempt closed, records none.
--   2. The attempt's guarded update: still pending, unexpired, and with a try left (a wrong code takes one; a right
--      code needs one free, as when it took a try and gave it back). Its row lock serialises judgements of one
--      attempt, so of a burst the fifth wrong code locks it and nothing after is compared. None updated: 'closed'
--      and the state that says why.
--   3. A wrong code: its entry (the timeline), and the fifth locks the attempt and stores `verification.failed`.
--      A right code: the pending → verified update links the verification (its id from the identity's sequence),
--      the right code's entry, the verification, and `verification.approved` with its deliveries and their jobs.
--      `code_entered` is set by the update itself, so code_entries' trigger finds nothing to change.
-- Answers one row: outcome 'limited' | 'closed' | 'incorrect' | 'approved'; retry_ms (limited), state (closed:
-- verified | locked | replaced | canceled | expired), tries_left (incorrect), verification_id (approved) and
-- deliveries (webhook deliveries made, for the caller to wake its worker).
CREATE OR REPLACE FUNCTION public.judge_verification_code(p_attempt_id text, p_correct boolean, p_now timestamp with time zone, p_ip text, p_user_agent text, p_bucket text, p_limit integer, p_window_ms bigint, p_max_tries integer, p_form_name text, p_form_category text, p_event_id text, p_event_data jsonb)
 RETURNS TABLE(outcome text, retry_ms bigint, state text, tries_left integer, verification_id bigint, deliveries integer)
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
DECLARE
  v_wait bigint;
  v_account_id integer;
  v_verification_id bigint;
  v_wrong_tries integer;
  v_status text;
  v_deliveries integer := 0;
BEGIN
  IF p_bucket IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_bucket, 0));
    v_wait := rate_limit_wait(p_bucket, p_limit, p_window_ms, p_now);
    IF v_wait IS NOT NULL THEN
      RETURN QUERY SELECT 'limited'::text, v_wait, NULL::text, NULL::integer, NULL::bigint, 0;
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
$function$;
