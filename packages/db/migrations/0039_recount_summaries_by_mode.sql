-- Until 0037 the summaries counted test verifications and attempts (issue #33) together with live ones, and the live
-- views took the test rows off one by one. They are now counted apart (`is_test` in each summary's key, ADR 29):
-- count every summary again from its rows, each mode under its own key. Rows that had come down to 0 are not kept.
DELETE FROM "verification_daily_counts";--> statement-breakpoint
INSERT INTO "verification_daily_counts" ("account_id", "is_test", "day", "verify_form_id", "verify_form_category", "verification_method", "n")
SELECT "account_id", "is_test", ("created_at" AT TIME ZONE 'UTC')::date, "verify_form_id", "verify_form_category", "verification_method", count(*)
FROM "verifications" GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
DELETE FROM "verification_total_counts";--> statement-breakpoint
INSERT INTO "verification_total_counts" ("account_id", "is_test", "verify_form_id", "verify_form_category", "verification_method", "n")
SELECT "account_id", "is_test", "verify_form_id", "verify_form_category", "verification_method", count(*)
FROM "verifications" GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
DELETE FROM "verification_hourly_counts";--> statement-breakpoint
INSERT INTO "verification_hourly_counts" ("account_id", "is_test", "hour", "verify_form_id", "verify_form_category", "verification_method", "source", "n")
SELECT "account_id", "is_test", date_trunc('hour', "created_at", 'UTC'), "verify_form_id", "verify_form_category", "verification_method", "source", count(*)
FROM "verifications" GROUP BY 1, 2, 3, 4, 5, 6, 7;--> statement-breakpoint
DELETE FROM "verification_hourly_method_counts";--> statement-breakpoint
INSERT INTO "verification_hourly_method_counts" ("account_id", "is_test", "hour", "verification_method", "n")
SELECT "account_id", "is_test", date_trunc('hour', "created_at", 'UTC'), "verification_method", count(*)
FROM "verifications" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
DELETE FROM "verification_attempt_hourly_funnel";--> statement-breakpoint
INSERT INTO "verification_attempt_hourly_funnel" ("account_id", "is_test", "hour", "verify_form_id", "method", "source", "requested", "delivered", "entered", "verified")
SELECT "account_id", "is_test", date_trunc('hour', "created_at", 'UTC'), "verify_form_id", "method", "source", count(*),
	count(*) FILTER (WHERE "delivery_status" = 'delivered' OR ("method" = 'email' AND "delivery_status" = 'sent')),
	count(*) FILTER (WHERE "code_entered"),
	count(*) FILTER (WHERE "status" = 'verified')
FROM "verification_attempts" GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
DELETE FROM "verification_attempt_daily_counts";--> statement-breakpoint
INSERT INTO "verification_attempt_daily_counts" ("account_id", "is_test", "day", "verify_form_id", "method", "source", "n", "delivered", "entered", "verified")
SELECT "account_id", "is_test", ("created_at" AT TIME ZONE 'UTC')::date, "verify_form_id", "method", "source", count(*),
	count(*) FILTER (WHERE "delivery_status" = 'delivered' OR ("method" = 'email' AND "delivery_status" = 'sent')),
	count(*) FILTER (WHERE "code_entered"),
	count(*) FILTER (WHERE "status" = 'verified')
FROM "verification_attempts" GROUP BY 1, 2, 3, 4, 5, 6;
