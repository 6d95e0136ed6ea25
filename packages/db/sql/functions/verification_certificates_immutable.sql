-- A certificate's signed facts never change (ADR 24). Three things may happen to it later, each once: it is revoked
-- (revoked_at and its reason set), its verification is redacted (redacted_at set, content and unlock_salt removed,
-- while the hash, signature and chain link stay to prove what was there), or its verification is purged by the
-- account's retention policy (purged_at set, content and unlock_salt removed: issue #37). Anything else is refused.
CREATE OR REPLACE FUNCTION public.verification_certificates_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM "accounts" WHERE "id" = OLD."account_id") THEN
      RETURN OLD;
    END IF;
  ELSIF (NEW."id", NEW."account_id", NEW."verification_id", NEW."seq", NEW."prev_hash", NEW."sha256", NEW."key_id",
         NEW."signature", NEW."created_at")
        IS NOT DISTINCT FROM
        (OLD."id", OLD."account_id", OLD."verification_id", OLD."seq", OLD."prev_hash", OLD."sha256", OLD."key_id",
         OLD."signature", OLD."created_at")
    AND ((NEW."revoked_at", NEW."revocation_reason") IS NOT DISTINCT FROM (OLD."revoked_at", OLD."revocation_reason")
         OR (OLD."revoked_at" IS NULL AND NEW."revoked_at" IS NOT NULL))
    AND ((NEW."redacted_at", NEW."content", NEW."unlock_salt") IS NOT DISTINCT FROM
           (OLD."redacted_at", OLD."content", OLD."unlock_salt")
         OR (OLD."redacted_at" IS NULL AND NEW."redacted_at" IS NOT NULL AND NEW."content" IS NULL
             AND NEW."unlock_salt" IS NULL)
         OR (OLD."purged_at" IS NULL AND NEW."purged_at" IS NOT NULL AND NEW."content" IS NULL
             AND NEW."unlock_salt" IS NULL))
    AND (NEW."purged_at" IS NOT DISTINCT FROM OLD."purged_at"
         OR (OLD."purged_at" IS NULL AND NEW."content" IS NULL AND NEW."unlock_salt" IS NULL))
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'verification_certificates is immutable: % refused', TG_OP USING ERRCODE = '42501';
END;
$function$;
