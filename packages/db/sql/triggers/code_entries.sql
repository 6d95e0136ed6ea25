-- "Code entered" for the report's funnel: an attempt's first code entry sets it (ADR 28).
CREATE OR REPLACE TRIGGER code_entries_mark_entered AFTER INSERT ON public.code_entries
  REFERENCING NEW TABLE AS added_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION verification_attempts_mark_entered();
