-- The report's verification series (ADR 28): statement triggers on verifications keep the hourly counts
-- (verification_hourly_counts) and the counts per hour and method (verification_hourly_method_counts). Keys are
-- taken in order so two statements never lock the same rows crosswise.
CREATE OR REPLACE FUNCTION public.verification_hourly_counts_clear()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	TRUNCATE "verification_hourly_counts", "verification_hourly_method_counts";
	RETURN NULL;
END
$function$;
