-- RateLimiter.consume (apps/server/src/lib/rate-limit.ts) in one call: it was a transaction of five round trips (begin,
-- the locks, a check per rule, the insert, commit) that held a pooled connection idle while Node worked between them
-- (the load mix sampled ~3 such connections at every instant). Same rules as before (ADR 12): the buckets' advisory
-- locks in the order given (the caller sorts them, as `locked()` does, so the two never deadlock); each rule's
-- limit-th newest event in its window decides; a refusal writes nothing and answers the longest wait of the rules
-- refused; else one event per rule is recorded and their ids answered (a right code gives its unit back by them).
-- Each statement of a plpgsql function takes a new snapshot, so the checks see what the lock holders before committed.
CREATE OR REPLACE FUNCTION public.consume_rate_limits(p_locks text[], p_buckets text[], p_limits integer[], p_window_ms bigint[], p_now timestamp with time zone)
 RETURNS TABLE(retry_ms bigint, event_ids bigint[])
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_lock text;
  v_worst bigint;
  v_ids bigint[];
BEGIN
  FOREACH v_lock IN ARRAY p_locks LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended(v_lock, 0));
  END LOOP;
  FOR i IN 1 .. coalesce(array_length(p_buckets, 1), 0) LOOP
    -- greatest() skips NULL (allowed): the longest wait of the rules refused.
    v_worst := greatest(v_worst, rate_limit_wait(p_buckets[i], p_limits[i], p_window_ms[i], p_now));
  END LOOP;
  IF v_worst IS NOT NULL THEN
    RETURN QUERY SELECT v_worst, NULL::bigint[];
    RETURN;
  END IF;
  WITH inserted AS (
    INSERT INTO rate_limit_events (bucket, created_at)
    SELECT b, p_now FROM unnest(p_buckets) WITH ORDINALITY AS t(b, n) ORDER BY n
    RETURNING id
  )
  SELECT array_agg(id) INTO v_ids FROM inserted;
  RETURN QUERY SELECT NULL::bigint, v_ids;
END
$function$;
