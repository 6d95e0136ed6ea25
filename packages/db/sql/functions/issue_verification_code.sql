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
--   6. The carrier lookups asked for this send (issue #36 item 1, ADR 42), linked to the attempt: p_line_type_lookup_id,
--      p_sim_swap_lookup_id, and the SIM swap's judgment with the window it used (p_sim_swap_within_window,
--      p_sim_swap_window_days: both null when nothing was judged). All null when nothing was asked.
--   7. The consent it refreshes (issue #36 item 4, ADR 44): p_refreshes, the old attempt a refresh link named (the
--      caller checked the link), kept as the attempt's `refreshes`; the link's first use (p_refresh_link_id) recorded.
--      Both null otherwise.
--   8. The webhook events (p_events [{id, type, data, dedupeKey}], built by the caller from the row it knows this
--      inserts), their deliveries due at once, and the code's send (p_job_data's sealedCode; none for a test
--      number) owed by the attempt itself: the code-send worker claims it from the row (ADR 33). p_job_name is kept
--      for the caller's signature and no longer read.
-- Refusals write nothing. Answers one row: outcome 'sent' | 'too_soon' | 'limited', wait_ms (too soon: until the
-- spacing has passed; limited: until the limit-th newest event leaves its window), refused (1-based index into
-- p_limits) and deliveries (webhook deliveries made).
CREATE OR REPLACE FUNCTION public.issue_verification_code(p_attempt_id text, p_account_id integer, p_form_id integer, p_cell_phone text, p_method text, p_email text, p_external_ref_id text, p_code_hash text, p_ip text, p_user_agent text, p_source text, p_api_key_id integer, p_consent_version_id text, p_consent_version integer, p_consent_language text, p_consent_sha256 text, p_page_view_id text, p_now timestamp with time zone, p_expires_at timestamp with time zone, p_resend_after_ms bigint, p_limits jsonb, p_test_delivery jsonb, p_events jsonb, p_job_name text, p_job_data jsonb, p_line_type_lookup_id bigint, p_sim_swap_lookup_id bigint, p_sim_swap_within_window boolean, p_sim_swap_window_days integer, p_refreshes text, p_refresh_link_id bigint)
 RETURNS TABLE(outcome text, wait_ms bigint, refused integer, deliveries integer)
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
DECLARE
  v_bucket text;
  v_latest timestamptz;
  v_rule record;
  v_wait bigint;
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
    -- The first rule refused answers (rate_limit_wait, the one decision).
    v_wait := rate_limit_wait(v_rule.bucket, v_rule.max_events, v_rule.window_ms, p_now);
    IF v_wait IS NOT NULL THEN
      RETURN QUERY SELECT 'limited'::text, v_wait, v_rule.n, 0;
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
    delivery_error_code, sealed_code, send_state, send_after, line_type_lookup_id, sim_swap_lookup_id,
    sim_swap_within_window, sim_swap_window_days, refreshes)
  VALUES (p_attempt_id, p_account_id, p_form_id, p_cell_phone, p_method, p_email, p_external_ref_id, p_code_hash,
    v_test, p_ip, p_user_agent, p_source, p_api_key_id, p_consent_version_id, p_consent_version, p_consent_language,
    p_consent_sha256,
    (SELECT v.id FROM form_page_views v WHERE v.id = p_page_view_id AND v.verify_form_id = p_form_id),
    p_now, p_expires_at, CASE WHEN v_test THEN p_now END, v_message_id,
    COALESCE(p_test_delivery->>'status', 'queued'), p_test_delivery->>'errorCode',
    p_job_data->>'sealedCode', CASE WHEN p_job_data IS NOT NULL THEN 'queued' END,
    CASE WHEN p_job_data IS NOT NULL THEN now() END, p_line_type_lookup_id, p_sim_swap_lookup_id,
    p_sim_swap_within_window, p_sim_swap_window_days, p_refreshes);
  IF p_refresh_link_id IS NOT NULL THEN
    UPDATE refresh_links SET first_used_at = p_now WHERE id = p_refresh_link_id AND first_used_at IS NULL;
  END IF;

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
$function$;
