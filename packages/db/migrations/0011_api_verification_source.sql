ALTER TABLE "verification_attempts" ADD COLUMN "source" text DEFAULT 'hosted' NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "api_key_id" integer;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "source" text DEFAULT 'hosted' NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD CONSTRAINT "verification_attempts_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;