-- The job row pg-boss's `send(name, data)` stores (pg-boss 10.4.2, plans.js `insertJob`, no per-job options), for SQL
-- that enqueues in its own transaction. Every queue of jobs/definitions/ sets its retry, expiry and retention policy,
-- so the queue's values are the ones pg-boss would take; the fallbacks are pg-boss's own. `pgboss` is JOB_SCHEMA
-- (jobs/boss.ts). jobs/sql-enqueue.test.ts compares a row stored here with one stored by pg-boss, so an upgrade of
-- pg-boss that changes its insert fails a test rather than the queue.
CREATE OR REPLACE FUNCTION public.enqueue_job(p_name text, p_data jsonb)
 RETURNS uuid
 LANGUAGE plpgsql
AS $function$
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
$function$;
