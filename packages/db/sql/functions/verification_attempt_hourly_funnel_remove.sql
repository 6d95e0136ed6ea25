-- The report's attempt funnel (ADR 28): statement triggers on verification_attempts keep the hourly funnel
-- (verification_attempt_hourly_funnel) and the daily counts with their steps (verification_attempt_daily_counts), one
-- firing per statement for both, hourly row before daily. Keys are taken in order so two statements never lock the
-- same rows crosswise.
CREATE OR REPLACE FUNCTION public.verification_attempt_hourly_funnel_remove()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	-- The retention purge (issue #37) removes old evidence and keeps its counts: past reports stay true.
	IF current_setting('veriform.retention_purge', true) = 'on' THEN
		RETURN NULL;
	END IF;
	UPDATE "verification_attempt_hourly_funnel" AS c SET "requested" = c."requested" - r."requested",
		"delivered" = c."delivered" - r."delivered", "entered" = c."entered" - r."entered", "verified" = c."verified" - r."verified"
	FROM (
		SELECT "account_id", "is_test", date_trunc('hour', "created_at", 'UTC') AS "hour", "verify_form_id", "method", "source",
			count(*) AS "requested",
			count(*) FILTER (WHERE "delivery_status" = 'delivered' OR ("method" = 'email' AND "delivery_status" = 'sent')) AS "delivered",
			count(*) FILTER (WHERE "code_entered") AS "entered",
			count(*) FILTER (WHERE "status" = 'verified') AS "verified"
		FROM "removed_rows"
		GROUP BY 1, 2, 3, 4, 5, 6
		ORDER BY 1, 2, 3, 4, 5, 6
	) AS r
	WHERE c."account_id" = r."account_id" AND c."is_test" = r."is_test" AND c."hour" = r."hour" AND c."verify_form_id" = r."verify_form_id"
		AND c."method" = r."method" AND c."source" = r."source";
	UPDATE "verification_attempt_daily_counts" AS c SET "n" = c."n" - r."requested",
		"delivered" = c."delivered" - r."delivered", "entered" = c."entered" - r."entered", "verified" = c."verified" - r."verified"
	FROM (
		SELECT "account_id", "is_test", ("created_at" AT TIME ZONE 'UTC')::date AS "day", "verify_form_id", "method", "source",
			count(*) AS "requested",
			count(*) FILTER (WHERE "delivery_status" = 'delivered' OR ("method" = 'email' AND "delivery_status" = 'sent')) AS "delivered",
			count(*) FILTER (WHERE "code_entered") AS "entered",
			count(*) FILTER (WHERE "status" = 'verified') AS "verified"
		FROM "removed_rows"
		GROUP BY 1, 2, 3, 4, 5, 6
		ORDER BY 1, 2, 3, 4, 5, 6
	) AS r
	WHERE c."account_id" = r."account_id" AND c."is_test" = r."is_test" AND c."day" = r."day" AND c."verify_form_id" = r."verify_form_id"
		AND c."method" = r."method" AND c."source" = r."source";
	RETURN NULL;
END
$function$;
