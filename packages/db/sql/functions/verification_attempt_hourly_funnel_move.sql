-- The report's attempt funnel (ADR 28): statement triggers on verification_attempts keep the hourly funnel
-- (verification_attempt_hourly_funnel) and the daily counts with their steps (verification_attempt_daily_counts), one
-- firing per statement for both, hourly row before daily. Keys are taken in order so two statements never lock the
-- same rows crosswise.
CREATE OR REPLACE FUNCTION public.verification_attempt_hourly_funnel_move()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
	old_delivered integer := CASE WHEN OLD."delivery_status" = 'delivered' OR (OLD."method" = 'email' AND OLD."delivery_status" = 'sent') THEN 1 ELSE 0 END;
	new_delivered integer := CASE WHEN NEW."delivery_status" = 'delivered' OR (NEW."method" = 'email' AND NEW."delivery_status" = 'sent') THEN 1 ELSE 0 END;
	old_entered integer := CASE WHEN OLD."code_entered" THEN 1 ELSE 0 END;
	new_entered integer := CASE WHEN NEW."code_entered" THEN 1 ELSE 0 END;
	old_verified integer := CASE WHEN OLD."status" = 'verified' THEN 1 ELSE 0 END;
	new_verified integer := CASE WHEN NEW."status" = 'verified' THEN 1 ELSE 0 END;
	same_key boolean := OLD."account_id" = NEW."account_id" AND OLD."is_test" = NEW."is_test" AND OLD."created_at" = NEW."created_at"
		AND OLD."verify_form_id" = NEW."verify_form_id" AND OLD."method" = NEW."method" AND OLD."source" = NEW."source";
BEGIN
	IF same_key THEN
		-- The usual case (a step reached): one write of the differences to each summary.
		UPDATE "verification_attempt_hourly_funnel" AS c SET "delivered" = c."delivered" + new_delivered - old_delivered,
			"entered" = c."entered" + new_entered - old_entered, "verified" = c."verified" + new_verified - old_verified
		WHERE c."account_id" = NEW."account_id" AND c."is_test" = NEW."is_test" AND c."hour" = date_trunc('hour', NEW."created_at", 'UTC')
			AND c."verify_form_id" = NEW."verify_form_id" AND c."method" = NEW."method" AND c."source" = NEW."source";
		UPDATE "verification_attempt_daily_counts" AS c SET "delivered" = c."delivered" + new_delivered - old_delivered,
			"entered" = c."entered" + new_entered - old_entered, "verified" = c."verified" + new_verified - old_verified
		WHERE c."account_id" = NEW."account_id" AND c."is_test" = NEW."is_test" AND c."day" = (NEW."created_at" AT TIME ZONE 'UTC')::date
			AND c."verify_form_id" = NEW."verify_form_id" AND c."method" = NEW."method" AND c."source" = NEW."source";
		RETURN NULL;
	END IF;
	UPDATE "verification_attempt_hourly_funnel" AS c SET "requested" = c."requested" - 1,
		"delivered" = c."delivered" - old_delivered, "entered" = c."entered" - old_entered, "verified" = c."verified" - old_verified
	WHERE c."account_id" = OLD."account_id" AND c."is_test" = OLD."is_test" AND c."hour" = date_trunc('hour', OLD."created_at", 'UTC')
		AND c."verify_form_id" = OLD."verify_form_id" AND c."method" = OLD."method" AND c."source" = OLD."source";
	INSERT INTO "verification_attempt_hourly_funnel" AS c ("account_id", "is_test", "hour", "verify_form_id", "method", "source", "requested", "delivered", "entered", "verified")
	VALUES (NEW."account_id", NEW."is_test", date_trunc('hour', NEW."created_at", 'UTC'), NEW."verify_form_id", NEW."method", NEW."source", 1,
		new_delivered, new_entered, new_verified)
	ON CONFLICT ("account_id", "is_test", "hour", "verify_form_id", "method", "source")
	DO UPDATE SET "requested" = c."requested" + 1, "delivered" = c."delivered" + excluded."delivered",
		"entered" = c."entered" + excluded."entered", "verified" = c."verified" + excluded."verified";
	UPDATE "verification_attempt_daily_counts" AS c SET "n" = c."n" - 1,
		"delivered" = c."delivered" - old_delivered, "entered" = c."entered" - old_entered, "verified" = c."verified" - old_verified
	WHERE c."account_id" = OLD."account_id" AND c."is_test" = OLD."is_test" AND c."day" = (OLD."created_at" AT TIME ZONE 'UTC')::date
		AND c."verify_form_id" = OLD."verify_form_id" AND c."method" = OLD."method" AND c."source" = OLD."source";
	INSERT INTO "verification_attempt_daily_counts" AS c ("account_id", "is_test", "day", "verify_form_id", "method", "source", "n", "delivered", "entered", "verified")
	VALUES (NEW."account_id", NEW."is_test", (NEW."created_at" AT TIME ZONE 'UTC')::date, NEW."verify_form_id", NEW."method", NEW."source", 1,
		new_delivered, new_entered, new_verified)
	ON CONFLICT ("account_id", "is_test", "day", "verify_form_id", "method", "source")
	DO UPDATE SET "n" = c."n" + 1, "delivered" = c."delivered" + excluded."delivered",
		"entered" = c."entered" + excluded."entered", "verified" = c."verified" + excluded."verified";
	RETURN NULL;
END
$function$;
