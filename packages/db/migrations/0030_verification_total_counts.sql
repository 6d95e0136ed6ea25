-- Issue #20 items 3 and 4: the activity log's total without dates (its default view) read every daily row of the
-- account, ~1 ms at the load mix's 9,600 daily rows and 6,661 of them a minute under the mix (docs/benchmarks.md,
-- session 23). verification_total_counts keeps the all-time count per form, category and method, written by the daily
-- counts' own trigger functions (no new trigger firing), so a total without dates is a few rows. The index that made
-- that sum an index-only scan (migration 0025) goes: nothing else reads it, and with `n` in its key no update of a
-- daily count could be HOT.
CREATE TABLE "verification_total_counts" (
	"account_id" integer NOT NULL,
	"verify_form_id" integer NOT NULL,
	"verify_form_category" text NOT NULL,
	"verification_method" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "verification_total_counts_pk" PRIMARY KEY("account_id","verify_form_id","verify_form_category","verification_method")
);
--> statement-breakpoint
DROP INDEX "verification_daily_counts_account_method_form_n_idx";--> statement-breakpoint
ALTER TABLE "verification_total_counts" ADD CONSTRAINT "verification_total_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "verification_total_counts" ("account_id", "verify_form_id", "verify_form_category", "verification_method", "n")
SELECT "account_id", "verify_form_id", "verify_form_category", "verification_method", sum("n")
FROM "verification_daily_counts"
GROUP BY 1, 2, 3, 4;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "verification_daily_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "verification_daily_counts" AS c ("account_id", "day", "verify_form_id", "verify_form_category", "verification_method", "n")
	SELECT "account_id", ("created_at" AT TIME ZONE 'UTC')::date, "verify_form_id", "verify_form_category", "verification_method", count(*)
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4, 5
	ORDER BY 1, 2, 3, 4, 5
	ON CONFLICT ("account_id", "day", "verify_form_id", "verify_form_category", "verification_method")
	DO UPDATE SET "n" = c."n" + excluded."n";
	INSERT INTO "verification_total_counts" AS c ("account_id", "verify_form_id", "verify_form_category", "verification_method", "n")
	SELECT "account_id", "verify_form_id", "verify_form_category", "verification_method", count(*)
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4
	ORDER BY 1, 2, 3, 4
	ON CONFLICT ("account_id", "verify_form_id", "verify_form_category", "verification_method")
	DO UPDATE SET "n" = c."n" + excluded."n";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "verification_daily_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "verification_daily_counts" AS c SET "n" = c."n" - r."n"
	FROM (
		SELECT "account_id", ("created_at" AT TIME ZONE 'UTC')::date AS "day", "verify_form_id", "verify_form_category", "verification_method", count(*) AS "n"
		FROM "removed_rows"
		GROUP BY 1, 2, 3, 4, 5
		ORDER BY 1, 2, 3, 4, 5
	) AS r
	WHERE c."account_id" = r."account_id" AND c."day" = r."day" AND c."verify_form_id" = r."verify_form_id"
		AND c."verify_form_category" = r."verify_form_category" AND c."verification_method" = r."verification_method";
	UPDATE "verification_total_counts" AS c SET "n" = c."n" - r."n"
	FROM (
		SELECT "account_id", "verify_form_id", "verify_form_category", "verification_method", count(*) AS "n"
		FROM "removed_rows"
		GROUP BY 1, 2, 3, 4
		ORDER BY 1, 2, 3, 4
	) AS r
	WHERE c."account_id" = r."account_id" AND c."verify_form_id" = r."verify_form_id"
		AND c."verify_form_category" = r."verify_form_category" AND c."verification_method" = r."verification_method";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "verification_daily_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	TRUNCATE "verification_daily_counts", "verification_total_counts";
	RETURN NULL;
END
$$;
