-- The activity log's totals without a search (ADR 8, issue #20): statement triggers with transition tables on
-- verifications keep the per-day counts (verification_daily_counts) and the all-time counts per form, category and
-- method (verification_total_counts): one upsert per statement and key, whatever the number of rows. Keys are taken
-- in order so two statements never lock the same rows crosswise.
CREATE OR REPLACE FUNCTION public.verification_daily_counts_add()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	INSERT INTO "verification_daily_counts" AS c ("account_id", "is_test", "day", "verify_form_id", "verify_form_category", "verification_method", "n")
	SELECT "account_id", "is_test", ("created_at" AT TIME ZONE 'UTC')::date, "verify_form_id", "verify_form_category", "verification_method", count(*)
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4, 5, 6
	ORDER BY 1, 2, 3, 4, 5, 6
	ON CONFLICT ("account_id", "is_test", "day", "verify_form_id", "verify_form_category", "verification_method")
	DO UPDATE SET "n" = c."n" + excluded."n";
	INSERT INTO "verification_total_counts" AS c ("account_id", "is_test", "verify_form_id", "verify_form_category", "verification_method", "n")
	SELECT "account_id", "is_test", "verify_form_id", "verify_form_category", "verification_method", count(*)
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4, 5
	ORDER BY 1, 2, 3, 4, 5
	ON CONFLICT ("account_id", "is_test", "verify_form_id", "verify_form_category", "verification_method")
	DO UPDATE SET "n" = c."n" + excluded."n";
	RETURN NULL;
END
$function$;
