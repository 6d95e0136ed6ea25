ALTER TABLE "contactability_checks" ADD COLUMN "reassignment_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contactability_checks" ADD COLUMN "reassignment_answer" text;--> statement-breakpoint
ALTER TABLE "contactability_checks" ADD COLUMN "reassignment_check" text;--> statement-breakpoint
CREATE INDEX "lookups_account_asked_idx" ON "lookups" USING btree ("account_id","asked_at");--> statement-breakpoint
ALTER TABLE "contactability_checks" ADD CONSTRAINT "contactability_checks_reassignment_check" CHECK (("contactability_checks"."reassignment_checked_at" is null) = ("contactability_checks"."reassignment_answer" is null));