-- The report's attempt funnel (ADR 28): statement triggers on verification_attempts keep the hourly funnel
-- (verification_attempt_hourly_funnel) and the daily counts with their steps (verification_attempt_daily_counts), one
-- firing per statement for both, hourly row before daily. Keys are taken in order so two statements never lock the
-- same rows crosswise.
CREATE OR REPLACE FUNCTION public.verification_attempt_hourly_funnel_clear()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	TRUNCATE "verification_attempt_hourly_funnel", "verification_attempt_daily_counts";
	RETURN NULL;
END
$function$;
