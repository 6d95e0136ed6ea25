-- The activity log's totals (ADR 8) when an update moves one verification from one key to another (its account, test
-- flag, day, form, category or method changed): one less under the old key, one more under the new, in the daily
-- counts and the all-time counts. A row trigger that fires only on such a change (triggers/verifications.sql): an
-- update of anything else (a redaction masking the number) leaves both tables alone and takes none of their rows'
-- locks, which every new verification of the same form waits for (issue #37: a bulk erasure beside the living).
CREATE OR REPLACE FUNCTION public.verification_daily_counts_move()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	UPDATE "verification_daily_counts" AS c SET "n" = c."n" - 1
	WHERE c."account_id" = OLD."account_id" AND c."is_test" = OLD."is_test" AND c."day" = (OLD."created_at" AT TIME ZONE 'UTC')::date
		AND c."verify_form_id" = OLD."verify_form_id" AND c."verify_form_category" = OLD."verify_form_category"
		AND c."verification_method" = OLD."verification_method";
	INSERT INTO "verification_daily_counts" AS c ("account_id", "is_test", "day", "verify_form_id", "verify_form_category", "verification_method", "n")
	VALUES (NEW."account_id", NEW."is_test", (NEW."created_at" AT TIME ZONE 'UTC')::date, NEW."verify_form_id", NEW."verify_form_category", NEW."verification_method", 1)
	ON CONFLICT ("account_id", "is_test", "day", "verify_form_id", "verify_form_category", "verification_method")
	DO UPDATE SET "n" = c."n" + 1;
	UPDATE "verification_total_counts" AS c SET "n" = c."n" - 1
	WHERE c."account_id" = OLD."account_id" AND c."is_test" = OLD."is_test" AND c."verify_form_id" = OLD."verify_form_id"
		AND c."verify_form_category" = OLD."verify_form_category" AND c."verification_method" = OLD."verification_method";
	INSERT INTO "verification_total_counts" AS c ("account_id", "is_test", "verify_form_id", "verify_form_category", "verification_method", "n")
	VALUES (NEW."account_id", NEW."is_test", NEW."verify_form_id", NEW."verify_form_category", NEW."verification_method", 1)
	ON CONFLICT ("account_id", "is_test", "verify_form_id", "verify_form_category", "verification_method")
	DO UPDATE SET "n" = c."n" + 1;
	RETURN NULL;
END
$function$;
