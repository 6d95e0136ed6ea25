-- The activity log's total without a search: per-day counts kept by triggers (docs/decisions/0008).
CREATE TABLE "verification_daily_counts" (
	"account_id" integer NOT NULL,
	"day" date NOT NULL,
	"verify_form_id" integer NOT NULL,
	"verify_form_category" text NOT NULL,
	"verification_method" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "verification_daily_counts_pk" PRIMARY KEY("account_id","day","verify_form_id","verify_form_category","verification_method")
);
--> statement-breakpoint
ALTER TABLE "verification_daily_counts" ADD CONSTRAINT "verification_daily_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Statement triggers with transition tables: one upsert per statement and key, whatever the number of rows (the seed
-- script inserts 100,000 at a time). Keys are taken in order so two statements never lock the same rows crosswise.
CREATE FUNCTION "verification_daily_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "verification_daily_counts" AS c ("account_id", "day", "verify_form_id", "verify_form_category", "verification_method", "n")
	SELECT "account_id", ("created_at" AT TIME ZONE 'UTC')::date, "verify_form_id", "verify_form_category", "verification_method", count(*)
	FROM "added_rows"
	GROUP BY 1, 2, 3, 4, 5
	ORDER BY 1, 2, 3, 4, 5
	ON CONFLICT ("account_id", "day", "verify_form_id", "verify_form_category", "verification_method")
	DO UPDATE SET "n" = c."n" + excluded."n";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "verification_daily_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
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
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "verification_daily_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	TRUNCATE "verification_daily_counts";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "verifications_count_insert" AFTER INSERT ON "verifications"
	REFERENCING NEW TABLE AS "added_rows" FOR EACH STATEMENT EXECUTE FUNCTION "verification_daily_counts_add"();--> statement-breakpoint
CREATE TRIGGER "verifications_count_delete" AFTER DELETE ON "verifications"
	REFERENCING OLD TABLE AS "removed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "verification_daily_counts_remove"();--> statement-breakpoint
-- Rows are never updated today; should a counted column change, the counts follow (remove the old, add the new).
CREATE TRIGGER "verifications_count_update_remove" AFTER UPDATE ON "verifications"
	REFERENCING OLD TABLE AS "removed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "verification_daily_counts_remove"();--> statement-breakpoint
CREATE TRIGGER "verifications_count_update_add" AFTER UPDATE ON "verifications"
	REFERENCING NEW TABLE AS "added_rows" FOR EACH STATEMENT EXECUTE FUNCTION "verification_daily_counts_add"();--> statement-breakpoint
CREATE TRIGGER "verifications_count_truncate" AFTER TRUNCATE ON "verifications"
	FOR EACH STATEMENT EXECUTE FUNCTION "verification_daily_counts_clear"();--> statement-breakpoint
INSERT INTO "verification_daily_counts" ("account_id", "day", "verify_form_id", "verify_form_category", "verification_method", "n")
SELECT "account_id", ("created_at" AT TIME ZONE 'UTC')::date, "verify_form_id", "verify_form_category", "verification_method", count(*)
FROM "verifications"
GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
-- Sort indexes that end with the id: a page's ids from the index alone, however deep the offset.
CREATE INDEX "verifications_account_form_created_id_idx" ON "verifications" USING btree ("account_id","verify_form_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "verifications_account_phone_id_idx" ON "verifications" USING btree ("account_id","cell_phone","id");--> statement-breakpoint
CREATE INDEX "verifications_account_form_form_name_id_idx" ON "verifications" USING btree ("account_id","verify_form_id","verify_form_name","id");--> statement-breakpoint
DROP INDEX "verifications_account_form_created_idx";--> statement-breakpoint
DROP INDEX "verifications_account_phone_idx";--> statement-breakpoint
-- New indexes and the new table start with statistics (0005's expression indexes did not, and the planner guessed).
ANALYZE "verifications";--> statement-breakpoint
ANALYZE "verification_daily_counts";
