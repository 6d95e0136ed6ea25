DROP INDEX "verification_attempts_account_created_idx";--> statement-breakpoint
DROP INDEX "verification_attempts_account_form_created_idx";--> statement-breakpoint
DROP INDEX "verification_attempts_account_ref_created_idx";--> statement-breakpoint
DROP INDEX "verification_attempts_account_created_report_idx";--> statement-breakpoint
DROP INDEX "verifications_account_created_idx";--> statement-breakpoint
DROP INDEX "verifications_account_form_created_id_idx";--> statement-breakpoint
DROP INDEX "verifications_account_phone_id_idx";--> statement-breakpoint
DROP INDEX "verifications_account_ref_id_idx";--> statement-breakpoint
DROP INDEX "verifications_account_form_id_idx";--> statement-breakpoint
DROP INDEX "verifications_account_form_name_id_idx";--> statement-breakpoint
DROP INDEX "verifications_account_form_form_name_id_idx";--> statement-breakpoint
DROP INDEX "verifications_account_category_id_idx";--> statement-breakpoint
DROP INDEX "verifications_account_form_category_id_idx";--> statement-breakpoint
DROP INDEX "verifications_account_created_report_idx";--> statement-breakpoint
ALTER TABLE "verification_attempt_daily_counts" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_attempt_hourly_funnel" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_daily_counts" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_hourly_counts" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_hourly_method_counts" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_total_counts" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "verification_attempts_account_created_idx" ON "verification_attempts" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"is_test");--> statement-breakpoint
CREATE INDEX "verification_attempts_account_form_created_idx" ON "verification_attempts" USING btree ("account_id","verify_form_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"is_test");--> statement-breakpoint
CREATE INDEX "verification_attempts_account_ref_created_idx" ON "verification_attempts" USING btree ("account_id","external_ref_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"is_test");--> statement-breakpoint
CREATE INDEX "verification_attempts_account_created_report_idx" ON "verification_attempts" USING btree ("account_id","created_at","method","verify_form_id","is_test");--> statement-breakpoint
CREATE INDEX "verifications_account_created_idx" ON "verifications" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"is_test");--> statement-breakpoint
CREATE INDEX "verifications_account_form_created_id_idx" ON "verifications" USING btree ("account_id","verify_form_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"is_test");--> statement-breakpoint
CREATE INDEX "verifications_account_phone_id_idx" ON "verifications" USING btree ("account_id","cell_phone","id","is_test");--> statement-breakpoint
CREATE INDEX "verifications_account_ref_id_idx" ON "verifications" USING btree ("account_id","external_ref_id","id","is_test");--> statement-breakpoint
CREATE INDEX "verifications_account_form_id_idx" ON "verifications" USING btree ("account_id","verify_form_id","id","is_test");--> statement-breakpoint
CREATE INDEX "verifications_account_form_name_id_idx" ON "verifications" USING btree ("account_id","verify_form_name","id","is_test");--> statement-breakpoint
CREATE INDEX "verifications_account_form_form_name_id_idx" ON "verifications" USING btree ("account_id","verify_form_id","verify_form_name","id","is_test");--> statement-breakpoint
CREATE INDEX "verifications_account_category_id_idx" ON "verifications" USING btree ("account_id","verify_form_category","id","is_test");--> statement-breakpoint
CREATE INDEX "verifications_account_form_category_id_idx" ON "verifications" USING btree ("account_id","verify_form_id","verify_form_category","id","is_test");--> statement-breakpoint
CREATE INDEX "verifications_account_created_report_idx" ON "verifications" USING btree ("account_id","created_at","verification_method","verify_form_id","verify_form_category","is_test");--> statement-breakpoint
ALTER TABLE "verification_attempt_daily_counts" DROP CONSTRAINT "verification_attempt_daily_counts_pk";
--> statement-breakpoint
ALTER TABLE "verification_attempt_daily_counts" ADD CONSTRAINT "verification_attempt_daily_counts_pk" PRIMARY KEY("account_id","is_test","day","verify_form_id","method","source");--> statement-breakpoint
ALTER TABLE "verification_attempt_hourly_funnel" DROP CONSTRAINT "verification_attempt_hourly_funnel_pk";
--> statement-breakpoint
ALTER TABLE "verification_attempt_hourly_funnel" ADD CONSTRAINT "verification_attempt_hourly_funnel_pk" PRIMARY KEY("account_id","is_test","hour","verify_form_id","method","source");--> statement-breakpoint
ALTER TABLE "verification_daily_counts" DROP CONSTRAINT "verification_daily_counts_pk";
--> statement-breakpoint
ALTER TABLE "verification_daily_counts" ADD CONSTRAINT "verification_daily_counts_pk" PRIMARY KEY("account_id","is_test","day","verify_form_id","verify_form_category","verification_method");--> statement-breakpoint
ALTER TABLE "verification_hourly_counts" DROP CONSTRAINT "verification_hourly_counts_pk";
--> statement-breakpoint
ALTER TABLE "verification_hourly_counts" ADD CONSTRAINT "verification_hourly_counts_pk" PRIMARY KEY("account_id","is_test","hour","verify_form_id","verify_form_category","verification_method","source");--> statement-breakpoint
ALTER TABLE "verification_hourly_method_counts" DROP CONSTRAINT "verification_hourly_method_counts_pk";
--> statement-breakpoint
ALTER TABLE "verification_hourly_method_counts" ADD CONSTRAINT "verification_hourly_method_counts_pk" PRIMARY KEY("account_id","is_test","hour","verification_method");--> statement-breakpoint
ALTER TABLE "verification_total_counts" DROP CONSTRAINT "verification_total_counts_pk";
--> statement-breakpoint
ALTER TABLE "verification_total_counts" ADD CONSTRAINT "verification_total_counts_pk" PRIMARY KEY("account_id","is_test","verify_form_id","verify_form_category","verification_method");