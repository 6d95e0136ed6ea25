-- The report's verification series (ADR 28): statement triggers on verifications keep the hourly counts
-- (verification_hourly_counts) and the counts per hour and method (verification_hourly_method_counts). Keys are
-- taken in order so two statements never lock the same rows crosswise.
CREATE OR REPLACE FUNCTION public.verification_hourly_counts_remove()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	-- The retention purge (issue #37) removes old evidence and keeps its counts: past reports stay true.
	IF current_setting('veriform.retention_purge', true) = 'on' THEN
		RETURN NULL;
	END IF;
	UPDATE "verification_hourly_counts" AS c SET "n" = c."n" - r."n"
	FROM (
		SELECT "account_id", "is_test", date_trunc('hour', "created_at", 'UTC') AS "hour", "verify_form_id", "verify_form_category", "verification_method", "source", count(*) AS "n"
		FROM "removed_rows"
		GROUP BY 1, 2, 3, 4, 5, 6, 7
		ORDER BY 1, 2, 3, 4, 5, 6, 7
	) AS r
	WHERE c."account_id" = r."account_id" AND c."is_test" = r."is_test" AND c."hour" = r."hour" AND c."verify_form_id" = r."verify_form_id"
		AND c."verify_form_category" = r."verify_form_category" AND c."verification_method" = r."verification_method"
		AND c."source" = r."source";
	UPDATE "verification_hourly_method_counts" AS c SET "n" = c."n" - r."n"
	FROM (
		SELECT "account_id", "is_test", date_trunc('hour', "created_at", 'UTC') AS "hour", "verification_method", count(*) AS "n"
		FROM "removed_rows"
		GROUP BY 1, 2, 3, 4
		ORDER BY 1, 2, 3, 4
	) AS r
	WHERE c."account_id" = r."account_id" AND c."is_test" = r."is_test" AND c."hour" = r."hour" AND c."verification_method" = r."verification_method";
	RETURN NULL;
END
$function$;
