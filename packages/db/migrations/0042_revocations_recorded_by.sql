ALTER TABLE "revocations" ADD COLUMN "via" text;--> statement-breakpoint
ALTER TABLE "revocations" ADD COLUMN "note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "revocations" ADD COLUMN "recorded_by" text;