-- The rate-limit decision, written once (ADR 12; issue #34, ADR 32): of the bucket's events in the window, the
-- limit-th newest decides. Fewer than `p_limit` events: allowed, NULL. Else the wait in milliseconds until that event
-- leaves the window; a limit of 0 or less refuses, for a whole window when the bucket has no event. Only that row is
-- read: the index on (bucket, created_at) walks to it without returning the rows before it, so large limits (10,000
-- sends a day per account) stay cheap. The caller holds the bucket's advisory lock (hashtextextended(bucket, 0)) when
-- it records what it decided. Called by consume_rate_limits, issue_verification_code, judge_verification_code and
-- the checks of RateLimiter.locked() (apps/server/src/lib/rate-limit.ts).
CREATE OR REPLACE FUNCTION public.rate_limit_wait(p_bucket text, p_limit integer, p_window_ms bigint, p_now timestamp with time zone)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_limiting timestamptz;
BEGIN
  SELECT e.created_at INTO v_limiting
  FROM rate_limit_events e
  WHERE e.bucket = p_bucket AND e.created_at > p_now - p_window_ms * interval '1 millisecond'
  ORDER BY e.created_at DESC
  OFFSET greatest(0, p_limit - 1)
  LIMIT 1;
  IF v_limiting IS NOT NULL THEN
    RETURN ceil(extract(epoch FROM v_limiting - p_now) * 1000)::bigint + p_window_ms;
  END IF;
  RETURN CASE WHEN p_limit <= 0 THEN p_window_ms END;
END
$function$;
