-- A certificate is immutable but for its revocation and redaction (ADR 24): see
-- functions/verification_certificates_immutable.sql.
CREATE OR REPLACE TRIGGER verification_certificates_immutable BEFORE DELETE OR UPDATE ON public.verification_certificates
  FOR EACH ROW
  EXECUTE FUNCTION verification_certificates_immutable();
