-- The report's attempt funnel (ADR 28): statement triggers on verification_attempts keep the hourly funnel
-- (verification_attempt_hourly_funnel) and the daily counts with their steps (verification_attempt_daily_counts), one
-- firing per statement for both, hourly row before daily. Keys are taken in order so two statements never lock the
-- same rows crosswise.
CREATE OR REPLACE FUNCTION public.verification_attempt_hourly_funnel_add()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	INSERT INTO "verification_attempt_hourly_funnel" AS c ("account_id", "is_test", "hour", "verify_form_id", "method", "source", "requested", "delivered", "entered", "verified")
	SELECT "account_id", "is_test", date_trunc('hour', "created_at", 'UTC'), "verify_form_id", "method", "source", count(*),
		count(*) FILTER (WHERE "delivery_status" = 'delivered' OR ("method" = 'email' AND "delivery_status" = 'sent')),
		count(*) FILTER (WHERE "code_entered"),
		count(*) FILTER (WHERE "status" = 'verified')
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4, 5, 6
	ORDER BY 1, 2, 3, 4, 5, 6
	ON CONFLICT ("account_id", "is_test", "hour", "verify_form_id", "method", "source")
	DO UPDATE SET "requested" = c."requested" + excluded."requested", "delivered" = c."delivered" + excluded."delivered",
		"entered" = c."entered" + excluded."entered", "verified" = c."verified" + excluded."verified";
	INSERT INTO "verification_attempt_daily_counts" AS c ("account_id", "is_test", "day", "verify_form_id", "method", "source", "n", "delivered", "entered", "verified")
	SELECT "account_id", "is_test", ("created_at" AT TIME ZONE 'UTC')::date, "verify_form_id", "method", "source", count(*),
		count(*) FILTER (WHERE "delivery_status" = 'delivered' OR ("method" = 'email' AND "delivery_status" = 'sent')),
		count(*) FILTER (WHERE "code_entered"),
		count(*) FILTER (WHERE "status" = 'verified')
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4, 5, 6
	ORDER BY 1, 2, 3, 4, 5, 6
	ON CONFLICT ("account_id", "is_test", "day", "verify_form_id", "method", "source")
	DO UPDATE SET "n" = c."n" + excluded."n", "delivered" = c."delivered" + excluded."delivered",
		"entered" = c."entered" + excluded."entered", "verified" = c."verified" + excluded."verified";
	RETURN NULL;
END
$function$;
