-- The audit log is append-only (ADR 19): see functions/audit_events_append_only.sql for the deletes that pass.
CREATE OR REPLACE TRIGGER audit_events_append_only BEFORE DELETE OR UPDATE ON public.audit_events
  FOR EACH ROW
  EXECUTE FUNCTION audit_events_append_only();
