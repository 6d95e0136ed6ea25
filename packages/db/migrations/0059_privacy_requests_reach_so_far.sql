ALTER TABLE "privacy_requests" ADD COLUMN "attempts_erased_so_far" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD COLUMN "verdicts_erased_so_far" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD COLUMN "lookups_erased_so_far" integer DEFAULT 0 NOT NULL;