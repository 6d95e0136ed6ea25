-- Issue #34 (ADR 35): "expired" defined once for SQL, as modules/attempts/state.ts defines it for TypeScript (isOpen,
-- statusAt) and for Drizzle readers (openSql, statusSql): an attempt takes a code while it is pending and before its
-- expires_at; a pending attempt at or past its expires_at reads as 'expired'. SQL functions call these instead of
-- writing the predicate again; a test (modules/attempts/state.test.ts) holds the two languages to one table of cases on
-- both engines. IMMUTABLE SQL functions of one expression, so PostgreSQL inlines them and the indexes still serve.
CREATE FUNCTION "attempt_is_open"(p_status text, p_expires_at timestamptz, p_now timestamptz)
RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT p_status = 'pending' AND p_expires_at > p_now
$$;--> statement-breakpoint
CREATE FUNCTION "attempt_status_at"(p_status text, p_expires_at timestamptz, p_now timestamptz)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_status = 'pending' AND NOT attempt_is_open(p_status, p_expires_at, p_now) THEN 'expired'
    ELSE p_status END
$$;
