-- The report's verification series (ADR 28): statement triggers on verifications keep the hourly counts
-- (verification_hourly_counts) and the counts per hour and method (verification_hourly_method_counts). Keys are
-- taken in order so two statements never lock the same rows crosswise.
CREATE OR REPLACE FUNCTION public.verification_hourly_counts_add()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	INSERT INTO "verification_hourly_counts" AS c ("account_id", "is_test", "hour", "verify_form_id", "verify_form_category", "verification_method", "source", "n")
	SELECT "account_id", "is_test", date_trunc('hour', "created_at", 'UTC'), "verify_form_id", "verify_form_category", "verification_method", "source", count(*)
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4, 5, 6, 7
	ORDER BY 1, 2, 3, 4, 5, 6, 7
	ON CONFLICT ("account_id", "is_test", "hour", "verify_form_id", "verify_form_category", "verification_method", "source")
	DO UPDATE SET "n" = c."n" + excluded."n";
	INSERT INTO "verification_hourly_method_counts" AS c ("account_id", "is_test", "hour", "verification_method", "n")
	SELECT "account_id", "is_test", date_trunc('hour', "created_at", 'UTC'), "verification_method", count(*)
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4
	ORDER BY 1, 2, 3, 4
	ON CONFLICT ("account_id", "is_test", "hour", "verification_method") DO UPDATE SET "n" = c."n" + excluded."n";
	RETURN NULL;
END
$function$;
