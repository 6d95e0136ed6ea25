-- The report's unfiltered series and its range totals from fewer summary rows (issue #20 items 3 and 4, ADR 28).
-- Where an hour holds a few verifications per form (the load mix: ~31 an hour over 12 forms), the hourly summaries of
-- migration 0024 have about as many rows as the range has verifications, and the report read them all (~40 % of
-- PostgreSQL's time in the load mix). Now:
-- - the series per local day without a form, category or source filter reads verifications per hour and method only
--   (verification_hourly_method_counts, ≤ 48 rows a day);
-- - the funnel's totals read the whole UTC days of the range from verification_attempt_daily_counts, which now keeps
--   the steps as well as the codes requested (`n`), and only the hours at either end from the hourly funnel.
-- One trigger function per table keeps both of its summaries (the attempts' daily counts were migration 0023's own
-- triggers): one firing per statement instead of two, and every path takes the hourly row before the daily one.
CREATE TABLE "verification_hourly_method_counts" (
	"account_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"verification_method" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "verification_hourly_method_counts_pk" PRIMARY KEY("account_id","hour","verification_method")
);
--> statement-breakpoint
ALTER TABLE "verification_attempt_daily_counts" ADD COLUMN "delivered" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_attempt_daily_counts" ADD COLUMN "entered" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_attempt_daily_counts" ADD COLUMN "verified" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_hourly_method_counts" ADD CONSTRAINT "verification_hourly_method_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint

-- 1. Verifications per hour and method, kept beside verification_hourly_counts by its triggers.
CREATE OR REPLACE FUNCTION "verification_hourly_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "verification_hourly_counts" AS c ("account_id", "hour", "verify_form_id", "verify_form_category", "verification_method", "source", "n")
	SELECT "account_id", date_trunc('hour', "created_at", 'UTC'), "verify_form_id", "verify_form_category", "verification_method", "source", count(*)
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4, 5, 6
	ORDER BY 1, 2, 3, 4, 5, 6
	ON CONFLICT ("account_id", "hour", "verify_form_id", "verify_form_category", "verification_method", "source")
	DO UPDATE SET "n" = c."n" + excluded."n";
	INSERT INTO "verification_hourly_method_counts" AS c ("account_id", "hour", "verification_method", "n")
	SELECT "account_id", date_trunc('hour', "created_at", 'UTC'), "verification_method", count(*)
	FROM "added_rows"
	GROUP BY 1, 2, 3
	ORDER BY 1, 2, 3
	ON CONFLICT ("account_id", "hour", "verification_method") DO UPDATE SET "n" = c."n" + excluded."n";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "verification_hourly_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "verification_hourly_counts" AS c SET "n" = c."n" - r."n"
	FROM (
		SELECT "account_id", date_trunc('hour', "created_at", 'UTC') AS "hour", "verify_form_id", "verify_form_category", "verification_method", "source", count(*) AS "n"
		FROM "removed_rows"
		GROUP BY 1, 2, 3, 4, 5, 6
		ORDER BY 1, 2, 3, 4, 5, 6
	) AS r
	WHERE c."account_id" = r."account_id" AND c."hour" = r."hour" AND c."verify_form_id" = r."verify_form_id"
		AND c."verify_form_category" = r."verify_form_category" AND c."verification_method" = r."verification_method"
		AND c."source" = r."source";
	UPDATE "verification_hourly_method_counts" AS c SET "n" = c."n" - r."n"
	FROM (
		SELECT "account_id", date_trunc('hour', "created_at", 'UTC') AS "hour", "verification_method", count(*) AS "n"
		FROM "removed_rows"
		GROUP BY 1, 2, 3
		ORDER BY 1, 2, 3
	) AS r
	WHERE c."account_id" = r."account_id" AND c."hour" = r."hour" AND c."verification_method" = r."verification_method";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "verification_hourly_counts_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "verification_hourly_counts" AS c SET "n" = c."n" - 1
	WHERE c."account_id" = OLD."account_id" AND c."hour" = date_trunc('hour', OLD."created_at", 'UTC')
		AND c."verify_form_id" = OLD."verify_form_id" AND c."verify_form_category" = OLD."verify_form_category"
		AND c."verification_method" = OLD."verification_method" AND c."source" = OLD."source";
	INSERT INTO "verification_hourly_counts" AS c ("account_id", "hour", "verify_form_id", "verify_form_category", "verification_method", "source", "n")
	VALUES (NEW."account_id", date_trunc('hour', NEW."created_at", 'UTC'), NEW."verify_form_id", NEW."verify_form_category", NEW."verification_method", NEW."source", 1)
	ON CONFLICT ("account_id", "hour", "verify_form_id", "verify_form_category", "verification_method", "source")
	DO UPDATE SET "n" = c."n" + 1;
	UPDATE "verification_hourly_method_counts" AS c SET "n" = c."n" - 1
	WHERE c."account_id" = OLD."account_id" AND c."hour" = date_trunc('hour', OLD."created_at", 'UTC')
		AND c."verification_method" = OLD."verification_method";
	INSERT INTO "verification_hourly_method_counts" AS c ("account_id", "hour", "verification_method", "n")
	VALUES (NEW."account_id", date_trunc('hour', NEW."created_at", 'UTC'), NEW."verification_method", 1)
	ON CONFLICT ("account_id", "hour", "verification_method") DO UPDATE SET "n" = c."n" + 1;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "verification_hourly_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	TRUNCATE "verification_hourly_counts", "verification_hourly_method_counts";
	RETURN NULL;
END
$$;--> statement-breakpoint
INSERT INTO "verification_hourly_method_counts" ("account_id", "hour", "verification_method", "n")
SELECT "account_id", "hour", "verification_method", sum("n")
FROM "verification_hourly_counts"
GROUP BY 1, 2, 3;--> statement-breakpoint

-- 2. The attempts' daily counts and their steps, kept by the hourly funnel's triggers (hourly row first, then daily).
DROP TRIGGER "verification_attempts_count_insert" ON "verification_attempts";--> statement-breakpoint
DROP TRIGGER "verification_attempts_count_delete" ON "verification_attempts";--> statement-breakpoint
DROP TRIGGER "verification_attempts_count_update" ON "verification_attempts";--> statement-breakpoint
DROP TRIGGER "verification_attempts_count_truncate" ON "verification_attempts";--> statement-breakpoint
DROP FUNCTION "verification_attempt_daily_counts_add"();--> statement-breakpoint
DROP FUNCTION "verification_attempt_daily_counts_remove"();--> statement-breakpoint
DROP FUNCTION "verification_attempt_daily_counts_move"();--> statement-breakpoint
DROP FUNCTION "verification_attempt_daily_counts_clear"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "verification_attempt_hourly_funnel_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "verification_attempt_hourly_funnel" AS c ("account_id", "hour", "verify_form_id", "method", "source", "requested", "delivered", "entered", "verified")
	SELECT "account_id", date_trunc('hour', "created_at", 'UTC'), "verify_form_id", "method", "source", count(*),
		count(*) FILTER (WHERE "delivery_status" = 'delivered' OR ("method" = 'email' AND "delivery_status" = 'sent')),
		count(*) FILTER (WHERE "code_entered"),
		count(*) FILTER (WHERE "status" = 'verified')
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4, 5
	ORDER BY 1, 2, 3, 4, 5
	ON CONFLICT ("account_id", "hour", "verify_form_id", "method", "source")
	DO UPDATE SET "requested" = c."requested" + excluded."requested", "delivered" = c."delivered" + excluded."delivered",
		"entered" = c."entered" + excluded."entered", "verified" = c."verified" + excluded."verified";
	INSERT INTO "verification_attempt_daily_counts" AS c ("account_id", "day", "verify_form_id", "method", "source", "n", "delivered", "entered", "verified")
	SELECT "account_id", ("created_at" AT TIME ZONE 'UTC')::date, "verify_form_id", "method", "source", count(*),
		count(*) FILTER (WHERE "delivery_status" = 'delivered' OR ("method" = 'email' AND "delivery_status" = 'sent')),
		count(*) FILTER (WHERE "code_entered"),
		count(*) FILTER (WHERE "status" = 'verified')
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4, 5
	ORDER BY 1, 2, 3, 4, 5
	ON CONFLICT ("account_id", "day", "verify_form_id", "method", "source")
	DO UPDATE SET "n" = c."n" + excluded."n", "delivered" = c."delivered" + excluded."delivered",
		"entered" = c."entered" + excluded."entered", "verified" = c."verified" + excluded."verified";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "verification_attempt_hourly_funnel_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "verification_attempt_hourly_funnel" AS c SET "requested" = c."requested" - r."requested",
		"delivered" = c."delivered" - r."delivered", "entered" = c."entered" - r."entered", "verified" = c."verified" - r."verified"
	FROM (
		SELECT "account_id", date_trunc('hour', "created_at", 'UTC') AS "hour", "verify_form_id", "method", "source",
			count(*) AS "requested",
			count(*) FILTER (WHERE "delivery_status" = 'delivered' OR ("method" = 'email' AND "delivery_status" = 'sent')) AS "delivered",
			count(*) FILTER (WHERE "code_entered") AS "entered",
			count(*) FILTER (WHERE "status" = 'verified') AS "verified"
		FROM "removed_rows"
		GROUP BY 1, 2, 3, 4, 5
		ORDER BY 1, 2, 3, 4, 5
	) AS r
	WHERE c."account_id" = r."account_id" AND c."hour" = r."hour" AND c."verify_form_id" = r."verify_form_id"
		AND c."method" = r."method" AND c."source" = r."source";
	UPDATE "verification_attempt_daily_counts" AS c SET "n" = c."n" - r."requested",
		"delivered" = c."delivered" - r."delivered", "entered" = c."entered" - r."entered", "verified" = c."verified" - r."verified"
	FROM (
		SELECT "account_id", ("created_at" AT TIME ZONE 'UTC')::date AS "day", "verify_form_id", "method", "source",
			count(*) AS "requested",
			count(*) FILTER (WHERE "delivery_status" = 'delivered' OR ("method" = 'email' AND "delivery_status" = 'sent')) AS "delivered",
			count(*) FILTER (WHERE "code_entered") AS "entered",
			count(*) FILTER (WHERE "status" = 'verified') AS "verified"
		FROM "removed_rows"
		GROUP BY 1, 2, 3, 4, 5
		ORDER BY 1, 2, 3, 4, 5
	) AS r
	WHERE c."account_id" = r."account_id" AND c."day" = r."day" AND c."verify_form_id" = r."verify_form_id"
		AND c."method" = r."method" AND c."source" = r."source";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "verification_attempt_hourly_funnel_move"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	old_delivered integer := CASE WHEN OLD."delivery_status" = 'delivered' OR (OLD."method" = 'email' AND OLD."delivery_status" = 'sent') THEN 1 ELSE 0 END;
	new_delivered integer := CASE WHEN NEW."delivery_status" = 'delivered' OR (NEW."method" = 'email' AND NEW."delivery_status" = 'sent') THEN 1 ELSE 0 END;
	old_entered integer := CASE WHEN OLD."code_entered" THEN 1 ELSE 0 END;
	new_entered integer := CASE WHEN NEW."code_entered" THEN 1 ELSE 0 END;
	old_verified integer := CASE WHEN OLD."status" = 'verified' THEN 1 ELSE 0 END;
	new_verified integer := CASE WHEN NEW."status" = 'verified' THEN 1 ELSE 0 END;
	same_key boolean := OLD."account_id" = NEW."account_id" AND OLD."created_at" = NEW."created_at"
		AND OLD."verify_form_id" = NEW."verify_form_id" AND OLD."method" = NEW."method" AND OLD."source" = NEW."source";
BEGIN
	IF same_key THEN
		-- The usual case (a step reached): one write of the differences to each summary.
		UPDATE "verification_attempt_hourly_funnel" AS c SET "delivered" = c."delivered" + new_delivered - old_delivered,
			"entered" = c."entered" + new_entered - old_entered, "verified" = c."verified" + new_verified - old_verified
		WHERE c."account_id" = NEW."account_id" AND c."hour" = date_trunc('hour', NEW."created_at", 'UTC')
			AND c."verify_form_id" = NEW."verify_form_id" AND c."method" = NEW."method" AND c."source" = NEW."source";
		UPDATE "verification_attempt_daily_counts" AS c SET "delivered" = c."delivered" + new_delivered - old_delivered,
			"entered" = c."entered" + new_entered - old_entered, "verified" = c."verified" + new_verified - old_verified
		WHERE c."account_id" = NEW."account_id" AND c."day" = (NEW."created_at" AT TIME ZONE 'UTC')::date
			AND c."verify_form_id" = NEW."verify_form_id" AND c."method" = NEW."method" AND c."source" = NEW."source";
		RETURN NULL;
	END IF;
	UPDATE "verification_attempt_hourly_funnel" AS c SET "requested" = c."requested" - 1,
		"delivered" = c."delivered" - old_delivered, "entered" = c."entered" - old_entered, "verified" = c."verified" - old_verified
	WHERE c."account_id" = OLD."account_id" AND c."hour" = date_trunc('hour', OLD."created_at", 'UTC')
		AND c."verify_form_id" = OLD."verify_form_id" AND c."method" = OLD."method" AND c."source" = OLD."source";
	INSERT INTO "verification_attempt_hourly_funnel" AS c ("account_id", "hour", "verify_form_id", "method", "source", "requested", "delivered", "entered", "verified")
	VALUES (NEW."account_id", date_trunc('hour', NEW."created_at", 'UTC'), NEW."verify_form_id", NEW."method", NEW."source", 1,
		new_delivered, new_entered, new_verified)
	ON CONFLICT ("account_id", "hour", "verify_form_id", "method", "source")
	DO UPDATE SET "requested" = c."requested" + 1, "delivered" = c."delivered" + excluded."delivered",
		"entered" = c."entered" + excluded."entered", "verified" = c."verified" + excluded."verified";
	UPDATE "verification_attempt_daily_counts" AS c SET "n" = c."n" - 1,
		"delivered" = c."delivered" - old_delivered, "entered" = c."entered" - old_entered, "verified" = c."verified" - old_verified
	WHERE c."account_id" = OLD."account_id" AND c."day" = (OLD."created_at" AT TIME ZONE 'UTC')::date
		AND c."verify_form_id" = OLD."verify_form_id" AND c."method" = OLD."method" AND c."source" = OLD."source";
	INSERT INTO "verification_attempt_daily_counts" AS c ("account_id", "day", "verify_form_id", "method", "source", "n", "delivered", "entered", "verified")
	VALUES (NEW."account_id", (NEW."created_at" AT TIME ZONE 'UTC')::date, NEW."verify_form_id", NEW."method", NEW."source", 1,
		new_delivered, new_entered, new_verified)
	ON CONFLICT ("account_id", "day", "verify_form_id", "method", "source")
	DO UPDATE SET "n" = c."n" + 1, "delivered" = c."delivered" + excluded."delivered",
		"entered" = c."entered" + excluded."entered", "verified" = c."verified" + excluded."verified";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "verification_attempt_hourly_funnel_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	TRUNCATE "verification_attempt_hourly_funnel", "verification_attempt_daily_counts";
	RETURN NULL;
END
$$;--> statement-breakpoint
-- The hourly funnel is exact and keyed like the daily counts but by hour: its sums per UTC day are the daily steps.
UPDATE "verification_attempt_daily_counts" AS c SET "delivered" = s."delivered", "entered" = s."entered", "verified" = s."verified"
FROM (
	SELECT "account_id", ("hour" AT TIME ZONE 'UTC')::date AS "day", "verify_form_id", "method", "source",
		sum("delivered") AS "delivered", sum("entered") AS "entered", sum("verified") AS "verified"
	FROM "verification_attempt_hourly_funnel"
	GROUP BY 1, 2, 3, 4, 5
) AS s
WHERE c."account_id" = s."account_id" AND c."day" = s."day" AND c."verify_form_id" = s."verify_form_id"
	AND c."method" = s."method" AND c."source" = s."source";--> statement-breakpoint
ANALYZE "verification_hourly_method_counts";--> statement-breakpoint
ANALYZE "verification_attempt_daily_counts";
