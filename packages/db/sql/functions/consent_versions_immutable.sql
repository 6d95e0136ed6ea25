-- Immutable (issue #18, ADR 22): a published consent version is evidence of what consumers agreed to, so the database
-- refuses to change or remove one. Two writes pass: a DELETE once the version's form or account row is already gone
-- (their ON DELETE CASCADE runs after the parent's removal), and the creator's user id becoming NULL with nothing
-- else changed (created_by's ON DELETE SET NULL when that user is deleted).
CREATE OR REPLACE FUNCTION public.consent_versions_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' AND (
    NOT EXISTS (SELECT 1 FROM "verify_forms" WHERE "id" = OLD."verify_form_id")
    OR NOT EXISTS (SELECT 1 FROM "accounts" WHERE "id" = OLD."account_id")
  ) THEN
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW."created_by" IS NULL
    AND (to_jsonb(NEW) - 'created_by') = (to_jsonb(OLD) - 'created_by') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'consent_versions is immutable: % refused', TG_OP USING ERRCODE = '42501';
END
$function$;
