-- The activity log's totals without a search (ADR 8, issue #20): statement triggers with transition tables on
-- verifications keep the per-day counts (verification_daily_counts) and the all-time counts per form, category and
-- method (verification_total_counts): one upsert per statement and key, whatever the number of rows. Keys are taken
-- in order so two statements never lock the same rows crosswise.
CREATE OR REPLACE FUNCTION public.verification_daily_counts_clear()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	TRUNCATE "verification_daily_counts", "verification_total_counts";
	RETURN NULL;
END
$function$;
