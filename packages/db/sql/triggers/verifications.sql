-- The activity log's counts (ADR 8) and the report's hourly series (ADR 28): statement triggers with transition
-- tables, and row triggers for the updates that move a verification between daily or hourly rows (an update of any
-- other column touches no count, nor its row's lock).
CREATE OR REPLACE TRIGGER verifications_count_delete AFTER DELETE ON public.verifications
  REFERENCING OLD TABLE AS removed_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION verification_daily_counts_remove();

CREATE OR REPLACE TRIGGER verifications_count_insert AFTER INSERT ON public.verifications
  REFERENCING NEW TABLE AS added_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION verification_daily_counts_add();

CREATE OR REPLACE TRIGGER verifications_count_truncate AFTER TRUNCATE ON public.verifications
  FOR EACH STATEMENT
  EXECUTE FUNCTION verification_daily_counts_clear();

CREATE OR REPLACE TRIGGER verifications_count_update AFTER UPDATE OF account_id, is_test, created_at, verify_form_id, verify_form_category, verification_method ON public.verifications
  FOR EACH ROW
  WHEN (((old.account_id IS DISTINCT FROM new.account_id)
    OR (old.is_test IS DISTINCT FROM new.is_test)
    OR (old.created_at IS DISTINCT FROM new.created_at)
    OR (old.verify_form_id IS DISTINCT FROM new.verify_form_id)
    OR (old.verify_form_category IS DISTINCT FROM new.verify_form_category)
    OR (old.verification_method IS DISTINCT FROM new.verification_method)))
  EXECUTE FUNCTION verification_daily_counts_move();

CREATE OR REPLACE TRIGGER verifications_hourly_delete AFTER DELETE ON public.verifications
  REFERENCING OLD TABLE AS removed_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION verification_hourly_counts_remove();

CREATE OR REPLACE TRIGGER verifications_hourly_insert AFTER INSERT ON public.verifications
  REFERENCING NEW TABLE AS added_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION verification_hourly_counts_add();

CREATE OR REPLACE TRIGGER verifications_hourly_truncate AFTER TRUNCATE ON public.verifications
  FOR EACH STATEMENT
  EXECUTE FUNCTION verification_hourly_counts_clear();

CREATE OR REPLACE TRIGGER verifications_hourly_update AFTER UPDATE OF account_id, is_test, created_at, verify_form_id, verify_form_category, verification_method, source ON public.verifications
  FOR EACH ROW
  WHEN (((old.account_id IS DISTINCT FROM new.account_id)
    OR (old.is_test IS DISTINCT FROM new.is_test)
    OR (old.created_at IS DISTINCT FROM new.created_at)
    OR (old.verify_form_id IS DISTINCT FROM new.verify_form_id)
    OR (old.verify_form_category IS DISTINCT FROM new.verify_form_category)
    OR (old.verification_method IS DISTINCT FROM new.verification_method)
    OR (old.source IS DISTINCT FROM new.source)))
  EXECUTE FUNCTION verification_hourly_counts_move();
