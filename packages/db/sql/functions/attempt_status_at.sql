-- An attempt's status as read at p_now: a pending attempt at or past its expires_at is 'expired' (attempt_is_open.sql).
CREATE OR REPLACE FUNCTION "attempt_status_at"(p_status text, p_expires_at timestamptz, p_now timestamptz)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_status = 'pending' AND NOT attempt_is_open(p_status, p_expires_at, p_now) THEN 'expired'
    ELSE p_status END
$$;
