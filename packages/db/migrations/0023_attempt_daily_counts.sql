CREATE TABLE "verification_attempt_daily_counts" (
	"account_id" integer NOT NULL,
	"day" date NOT NULL,
	"verify_form_id" integer NOT NULL,
	"method" text NOT NULL,
	"source" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "verification_attempt_daily_counts_pk" PRIMARY KEY("account_id","day","verify_form_id","method","source")
);
--> statement-breakpoint
ALTER TABLE "verification_attempt_daily_counts" ADD CONSTRAINT "verification_attempt_daily_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The attempts view's total without a search or a delivery status (issue #20, ADR 27): codes sent per UTC day, form,
-- method and source, kept as verification_daily_counts is (ADR 8). Statement triggers with transition tables: one
-- upsert per key and statement. Keys are taken in order so two statements never lock the same rows crosswise.
CREATE FUNCTION "verification_attempt_daily_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "verification_attempt_daily_counts" AS c ("account_id", "day", "verify_form_id", "method", "source", "n")
	SELECT "account_id", ("created_at" AT TIME ZONE 'UTC')::date, "verify_form_id", "method", "source", count(*)
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4, 5
	ORDER BY 1, 2, 3, 4, 5
	ON CONFLICT ("account_id", "day", "verify_form_id", "method", "source")
	DO UPDATE SET "n" = c."n" + excluded."n";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "verification_attempt_daily_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "verification_attempt_daily_counts" AS c SET "n" = c."n" - r."n"
	FROM (
		SELECT "account_id", ("created_at" AT TIME ZONE 'UTC')::date AS "day", "verify_form_id", "method", "source", count(*) AS "n"
		FROM "removed_rows"
		GROUP BY 1, 2, 3, 4, 5
		ORDER BY 1, 2, 3, 4, 5
	) AS r
	WHERE c."account_id" = r."account_id" AND c."day" = r."day" AND c."verify_form_id" = r."verify_form_id"
		AND c."method" = r."method" AND c."source" = r."source";
	RETURN NULL;
END
$$;--> statement-breakpoint
-- Attempts are updated all the time (status, delivery, tries), never in a counted column. A statement trigger would
-- rewrite a counts row on every such update (a write and a lock on the code check and delivery paths), and transition
-- tables cannot go with a column list; so a row trigger that fires only when a counted column really changes.
CREATE FUNCTION "verification_attempt_daily_counts_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "verification_attempt_daily_counts" AS c SET "n" = c."n" - 1
	WHERE c."account_id" = OLD."account_id" AND c."day" = (OLD."created_at" AT TIME ZONE 'UTC')::date
		AND c."verify_form_id" = OLD."verify_form_id" AND c."method" = OLD."method" AND c."source" = OLD."source";
	INSERT INTO "verification_attempt_daily_counts" AS c ("account_id", "day", "verify_form_id", "method", "source", "n")
	VALUES (NEW."account_id", (NEW."created_at" AT TIME ZONE 'UTC')::date, NEW."verify_form_id", NEW."method", NEW."source", 1)
	ON CONFLICT ("account_id", "day", "verify_form_id", "method", "source")
	DO UPDATE SET "n" = c."n" + 1;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "verification_attempt_daily_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	TRUNCATE "verification_attempt_daily_counts";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "verification_attempts_count_insert" AFTER INSERT ON "verification_attempts"
	REFERENCING NEW TABLE AS "added_rows" FOR EACH STATEMENT EXECUTE FUNCTION "verification_attempt_daily_counts_add"();--> statement-breakpoint
CREATE TRIGGER "verification_attempts_count_delete" AFTER DELETE ON "verification_attempts"
	REFERENCING OLD TABLE AS "removed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "verification_attempt_daily_counts_remove"();--> statement-breakpoint
CREATE TRIGGER "verification_attempts_count_update" AFTER UPDATE OF "account_id", "created_at", "verify_form_id", "method", "source" ON "verification_attempts"
	FOR EACH ROW WHEN (OLD."account_id" IS DISTINCT FROM NEW."account_id" OR OLD."created_at" IS DISTINCT FROM NEW."created_at"
		OR OLD."verify_form_id" IS DISTINCT FROM NEW."verify_form_id" OR OLD."method" IS DISTINCT FROM NEW."method"
		OR OLD."source" IS DISTINCT FROM NEW."source")
	EXECUTE FUNCTION "verification_attempt_daily_counts_move"();--> statement-breakpoint
CREATE TRIGGER "verification_attempts_count_truncate" AFTER TRUNCATE ON "verification_attempts"
	FOR EACH STATEMENT EXECUTE FUNCTION "verification_attempt_daily_counts_clear"();--> statement-breakpoint
INSERT INTO "verification_attempt_daily_counts" ("account_id", "day", "verify_form_id", "method", "source", "n")
SELECT "account_id", ("created_at" AT TIME ZONE 'UTC')::date, "verify_form_id", "method", "source", count(*)
FROM "verification_attempts"
GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
ANALYZE "verification_attempt_daily_counts";
