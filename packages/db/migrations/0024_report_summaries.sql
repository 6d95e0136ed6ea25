CREATE TABLE "verification_attempt_hourly_funnel" (
	"account_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"verify_form_id" integer NOT NULL,
	"method" text NOT NULL,
	"source" text NOT NULL,
	"requested" integer NOT NULL,
	"delivered" integer NOT NULL,
	"entered" integer NOT NULL,
	"verified" integer NOT NULL,
	CONSTRAINT "verification_attempt_hourly_funnel_pk" PRIMARY KEY("account_id","hour","verify_form_id","method","source")
);
--> statement-breakpoint
CREATE TABLE "verification_hourly_counts" (
	"account_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"verify_form_id" integer NOT NULL,
	"verify_form_category" text NOT NULL,
	"verification_method" text NOT NULL,
	"source" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "verification_hourly_counts_pk" PRIMARY KEY("account_id","hour","verify_form_id","verify_form_category","verification_method","source")
);
--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "code_entered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_attempt_hourly_funnel" ADD CONSTRAINT "verification_attempt_hourly_funnel_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_hourly_counts" ADD CONSTRAINT "verification_hourly_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_attempts_account_failed_created_idx" ON "verification_attempts" USING btree ("account_id","created_at") WHERE "verification_attempts"."delivery_status" in ('undelivered', 'failed');--> statement-breakpoint
-- The report without reading the range's rows (issue #20, ADR 28). Three summaries kept by triggers in the rows' own
-- transactions, as the daily counts are (ADR 8, ADR 27), per UTC hour: every whole-hour zone's local midnights fall on
-- an hour's start, and the hours a :30 or :45 zone's midnight cuts are read from the rows by the report.
-- Keys are taken in order so two statements never lock the same rows crosswise.

-- 1. Verifications per hour, form, category recorded, method and source.
CREATE FUNCTION "verification_hourly_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "verification_hourly_counts" AS c ("account_id", "hour", "verify_form_id", "verify_form_category", "verification_method", "source", "n")
	SELECT "account_id", date_trunc('hour', "created_at", 'UTC'), "verify_form_id", "verify_form_category", "verification_method", "source", count(*)
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4, 5, 6
	ORDER BY 1, 2, 3, 4, 5, 6
	ON CONFLICT ("account_id", "hour", "verify_form_id", "verify_form_category", "verification_method", "source")
	DO UPDATE SET "n" = c."n" + excluded."n";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "verification_hourly_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
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
	RETURN NULL;
END
$$;--> statement-breakpoint
-- Verifications are updated only by redaction (never a counted column): a row trigger that fires only when a counted
-- column really changes, as migration 0023's.
CREATE FUNCTION "verification_hourly_counts_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "verification_hourly_counts" AS c SET "n" = c."n" - 1
	WHERE c."account_id" = OLD."account_id" AND c."hour" = date_trunc('hour', OLD."created_at", 'UTC')
		AND c."verify_form_id" = OLD."verify_form_id" AND c."verify_form_category" = OLD."verify_form_category"
		AND c."verification_method" = OLD."verification_method" AND c."source" = OLD."source";
	INSERT INTO "verification_hourly_counts" AS c ("account_id", "hour", "verify_form_id", "verify_form_category", "verification_method", "source", "n")
	VALUES (NEW."account_id", date_trunc('hour', NEW."created_at", 'UTC'), NEW."verify_form_id", NEW."verify_form_category", NEW."verification_method", NEW."source", 1)
	ON CONFLICT ("account_id", "hour", "verify_form_id", "verify_form_category", "verification_method", "source")
	DO UPDATE SET "n" = c."n" + 1;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "verification_hourly_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	TRUNCATE "verification_hourly_counts";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "verifications_hourly_insert" AFTER INSERT ON "verifications"
	REFERENCING NEW TABLE AS "added_rows" FOR EACH STATEMENT EXECUTE FUNCTION "verification_hourly_counts_add"();--> statement-breakpoint
CREATE TRIGGER "verifications_hourly_delete" AFTER DELETE ON "verifications"
	REFERENCING OLD TABLE AS "removed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "verification_hourly_counts_remove"();--> statement-breakpoint
CREATE TRIGGER "verifications_hourly_update" AFTER UPDATE OF "account_id", "created_at", "verify_form_id", "verify_form_category", "verification_method", "source" ON "verifications"
	FOR EACH ROW WHEN (OLD."account_id" IS DISTINCT FROM NEW."account_id" OR OLD."created_at" IS DISTINCT FROM NEW."created_at"
		OR OLD."verify_form_id" IS DISTINCT FROM NEW."verify_form_id" OR OLD."verify_form_category" IS DISTINCT FROM NEW."verify_form_category"
		OR OLD."verification_method" IS DISTINCT FROM NEW."verification_method" OR OLD."source" IS DISTINCT FROM NEW."source")
	EXECUTE FUNCTION "verification_hourly_counts_move"();--> statement-breakpoint
CREATE TRIGGER "verifications_hourly_truncate" AFTER TRUNCATE ON "verifications"
	FOR EACH STATEMENT EXECUTE FUNCTION "verification_hourly_counts_clear"();--> statement-breakpoint
INSERT INTO "verification_hourly_counts" ("account_id", "hour", "verify_form_id", "verify_form_category", "verification_method", "source", "n")
SELECT "account_id", date_trunc('hour', "created_at", 'UTC'), "verify_form_id", "verify_form_category", "verification_method", "source", count(*)
FROM "verifications"
GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint

-- 2. "Code entered": an attempt's first code entry sets it. The UPDATE takes the attempt's row lock and re-reads
-- `NOT code_entered` after a concurrent first entry commits, so two entries at once count one attempt once.
UPDATE "verification_attempts" AS a SET "code_entered" = true
WHERE EXISTS (SELECT 1 FROM "code_entries" e WHERE e."attempt_id" = a."id");--> statement-breakpoint
CREATE FUNCTION "verification_attempts_mark_entered"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "verification_attempts" AS a SET "code_entered" = true
	FROM (SELECT DISTINCT "attempt_id" FROM "added_rows" ORDER BY 1) AS e
	WHERE a."id" = e."attempt_id" AND NOT a."code_entered";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "code_entries_mark_entered" AFTER INSERT ON "code_entries"
	REFERENCING NEW TABLE AS "added_rows" FOR EACH STATEMENT EXECUTE FUNCTION "verification_attempts_mark_entered"();--> statement-breakpoint

-- 3. The funnel per hour, form, method and source: codes requested and the steps reached. The steps move after the
-- insert (a delivery callback, a code entered, the approval): a row trigger adds the difference, and fires only when
-- a step or a key column really changes (most updates of an attempt, its tries, a `sent` SMS, change neither).
CREATE FUNCTION "verification_attempt_hourly_funnel_add"() RETURNS trigger LANGUAGE plpgsql AS $$
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
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "verification_attempt_hourly_funnel_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
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
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "verification_attempt_hourly_funnel_move"() RETURNS trigger LANGUAGE plpgsql AS $$
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
		-- The usual case (a step reached): one write of the differences.
		UPDATE "verification_attempt_hourly_funnel" AS c SET "delivered" = c."delivered" + new_delivered - old_delivered,
			"entered" = c."entered" + new_entered - old_entered, "verified" = c."verified" + new_verified - old_verified
		WHERE c."account_id" = NEW."account_id" AND c."hour" = date_trunc('hour', NEW."created_at", 'UTC')
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
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "verification_attempt_hourly_funnel_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	TRUNCATE "verification_attempt_hourly_funnel";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "verification_attempts_funnel_insert" AFTER INSERT ON "verification_attempts"
	REFERENCING NEW TABLE AS "added_rows" FOR EACH STATEMENT EXECUTE FUNCTION "verification_attempt_hourly_funnel_add"();--> statement-breakpoint
CREATE TRIGGER "verification_attempts_funnel_delete" AFTER DELETE ON "verification_attempts"
	REFERENCING OLD TABLE AS "removed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "verification_attempt_hourly_funnel_remove"();--> statement-breakpoint
CREATE TRIGGER "verification_attempts_funnel_update" AFTER UPDATE OF "account_id", "created_at", "verify_form_id", "method", "source", "status", "delivery_status", "code_entered" ON "verification_attempts"
	FOR EACH ROW WHEN (OLD."account_id" IS DISTINCT FROM NEW."account_id" OR OLD."created_at" IS DISTINCT FROM NEW."created_at"
		OR OLD."verify_form_id" IS DISTINCT FROM NEW."verify_form_id" OR OLD."method" IS DISTINCT FROM NEW."method"
		OR OLD."source" IS DISTINCT FROM NEW."source" OR OLD."code_entered" IS DISTINCT FROM NEW."code_entered"
		OR (OLD."status" = 'verified') IS DISTINCT FROM (NEW."status" = 'verified')
		OR (OLD."delivery_status" = 'delivered' OR (OLD."method" = 'email' AND OLD."delivery_status" = 'sent'))
			IS DISTINCT FROM (NEW."delivery_status" = 'delivered' OR (NEW."method" = 'email' AND NEW."delivery_status" = 'sent')))
	EXECUTE FUNCTION "verification_attempt_hourly_funnel_move"();--> statement-breakpoint
CREATE TRIGGER "verification_attempts_funnel_truncate" AFTER TRUNCATE ON "verification_attempts"
	FOR EACH STATEMENT EXECUTE FUNCTION "verification_attempt_hourly_funnel_clear"();--> statement-breakpoint
INSERT INTO "verification_attempt_hourly_funnel" ("account_id", "hour", "verify_form_id", "method", "source", "requested", "delivered", "entered", "verified")
SELECT "account_id", date_trunc('hour', "created_at", 'UTC'), "verify_form_id", "method", "source", count(*),
	count(*) FILTER (WHERE "delivery_status" = 'delivered' OR ("method" = 'email' AND "delivery_status" = 'sent')),
	count(*) FILTER (WHERE "code_entered"),
	count(*) FILTER (WHERE "status" = 'verified')
FROM "verification_attempts"
GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
ANALYZE "verification_hourly_counts";--> statement-breakpoint
ANALYZE "verification_attempt_hourly_funnel";
