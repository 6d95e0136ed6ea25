-- "Code entered" (migration 0024): an attempt's first code entry sets it. The UPDATE takes the attempt's row
-- lock and re-reads `NOT code_entered` after a concurrent first entry commits, so two entries at once count one
-- attempt once.
CREATE OR REPLACE FUNCTION public.verification_attempts_mark_entered()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	UPDATE "verification_attempts" AS a SET "code_entered" = true
	FROM (SELECT DISTINCT "attempt_id" FROM "added_rows" ORDER BY 1) AS e
	WHERE a."id" = e."attempt_id" AND NOT a."code_entered";
	RETURN NULL;
END
$function$;
