-- The report's verification series (ADR 28): statement triggers on verifications keep the hourly counts
-- (verification_hourly_counts) and the counts per hour and method (verification_hourly_method_counts). Keys are
-- taken in order so two statements never lock the same rows crosswise.
CREATE OR REPLACE FUNCTION public.verification_hourly_counts_move()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	UPDATE "verification_hourly_counts" AS c SET "n" = c."n" - 1
	WHERE c."account_id" = OLD."account_id" AND c."is_test" = OLD."is_test" AND c."hour" = date_trunc('hour', OLD."created_at", 'UTC')
		AND c."verify_form_id" = OLD."verify_form_id" AND c."verify_form_category" = OLD."verify_form_category"
		AND c."verification_method" = OLD."verification_method" AND c."source" = OLD."source";
	INSERT INTO "verification_hourly_counts" AS c ("account_id", "is_test", "hour", "verify_form_id", "verify_form_category", "verification_method", "source", "n")
	VALUES (NEW."account_id", NEW."is_test", date_trunc('hour', NEW."created_at", 'UTC'), NEW."verify_form_id", NEW."verify_form_category", NEW."verification_method", NEW."source", 1)
	ON CONFLICT ("account_id", "is_test", "hour", "verify_form_id", "verify_form_category", "verification_method", "source")
	DO UPDATE SET "n" = c."n" + 1;
	UPDATE "verification_hourly_method_counts" AS c SET "n" = c."n" - 1
	WHERE c."account_id" = OLD."account_id" AND c."is_test" = OLD."is_test" AND c."hour" = date_trunc('hour', OLD."created_at", 'UTC')
		AND c."verification_method" = OLD."verification_method";
	INSERT INTO "verification_hourly_method_counts" AS c ("account_id", "is_test", "hour", "verification_method", "n")
	VALUES (NEW."account_id", NEW."is_test", date_trunc('hour', NEW."created_at", 'UTC'), NEW."verification_method", 1)
	ON CONFLICT ("account_id", "is_test", "hour", "verification_method") DO UPDATE SET "n" = c."n" + 1;
	RETURN NULL;
END
$function$;
