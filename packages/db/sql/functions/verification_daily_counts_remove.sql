-- The activity log's totals without a search (ADR 8, issue #20): statement triggers with transition tables on
-- verifications keep the per-day counts (verification_daily_counts) and the all-time counts per form, category and
-- method (verification_total_counts): one upsert per statement and key, whatever the number of rows. Keys are taken
-- in order so two statements never lock the same rows crosswise.
CREATE OR REPLACE FUNCTION public.verification_daily_counts_remove()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	-- The retention purge (issue #37) removes old evidence and keeps its counts: past reports stay true.
	IF current_setting('veriform.retention_purge', true) = 'on' THEN
		RETURN NULL;
	END IF;
	UPDATE "verification_daily_counts" AS c SET "n" = c."n" - r."n"
	FROM (
		SELECT "account_id", "is_test", ("created_at" AT TIME ZONE 'UTC')::date AS "day", "verify_form_id", "verify_form_category", "verification_method", count(*) AS "n"
		FROM "removed_rows"
		GROUP BY 1, 2, 3, 4, 5, 6
		ORDER BY 1, 2, 3, 4, 5, 6
	) AS r
	WHERE c."account_id" = r."account_id" AND c."is_test" = r."is_test" AND c."day" = r."day" AND c."verify_form_id" = r."verify_form_id"
		AND c."verify_form_category" = r."verify_form_category" AND c."verification_method" = r."verification_method";
	UPDATE "verification_total_counts" AS c SET "n" = c."n" - r."n"
	FROM (
		SELECT "account_id", "is_test", "verify_form_id", "verify_form_category", "verification_method", count(*) AS "n"
		FROM "removed_rows"
		GROUP BY 1, 2, 3, 4, 5
		ORDER BY 1, 2, 3, 4, 5
	) AS r
	WHERE c."account_id" = r."account_id" AND c."is_test" = r."is_test" AND c."verify_form_id" = r."verify_form_id"
		AND c."verify_form_category" = r."verify_form_category" AND c."verification_method" = r."verification_method";
	RETURN NULL;
END
$function$;
