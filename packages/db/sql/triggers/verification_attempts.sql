-- The report's attempt funnel, hourly and daily (ADR 28): statement triggers with transition tables, and a row
-- trigger for the updates that move an attempt between summary rows.
CREATE OR REPLACE TRIGGER verification_attempts_funnel_delete AFTER DELETE ON public.verification_attempts
  REFERENCING OLD TABLE AS removed_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION verification_attempt_hourly_funnel_remove();

CREATE OR REPLACE TRIGGER verification_attempts_funnel_insert AFTER INSERT ON public.verification_attempts
  REFERENCING NEW TABLE AS added_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION verification_attempt_hourly_funnel_add();

CREATE OR REPLACE TRIGGER verification_attempts_funnel_truncate AFTER TRUNCATE ON public.verification_attempts
  FOR EACH STATEMENT
  EXECUTE FUNCTION verification_attempt_hourly_funnel_clear();

CREATE OR REPLACE TRIGGER verification_attempts_funnel_update AFTER UPDATE OF account_id, is_test, created_at, verify_form_id, method, source, status, delivery_status, code_entered ON public.verification_attempts
  FOR EACH ROW
  WHEN (((old.account_id IS DISTINCT FROM new.account_id)
    OR (old.is_test IS DISTINCT FROM new.is_test)
    OR (old.created_at IS DISTINCT FROM new.created_at)
    OR (old.verify_form_id IS DISTINCT FROM new.verify_form_id)
    OR (old.method IS DISTINCT FROM new.method)
    OR (old.source IS DISTINCT FROM new.source)
    OR (old.code_entered IS DISTINCT FROM new.code_entered)
    OR ((old.status = 'verified'::text) IS DISTINCT FROM (new.status = 'verified'::text))
    OR (((old.delivery_status = 'delivered'::text)
    OR ((old.method = 'email'::text) AND (old.delivery_status = 'sent'::text))) IS DISTINCT FROM ((new.delivery_status = 'delivered'::text)
    OR ((new.method = 'email'::text) AND (new.delivery_status = 'sent'::text))))))
  EXECUTE FUNCTION verification_attempt_hourly_funnel_move();
