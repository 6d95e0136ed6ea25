-- A published consent version is immutable (ADR 22): see functions/consent_versions_immutable.sql.
CREATE OR REPLACE TRIGGER consent_versions_immutable BEFORE DELETE OR UPDATE ON public.consent_versions
  FOR EACH ROW
  EXECUTE FUNCTION consent_versions_immutable();
