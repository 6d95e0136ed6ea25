CREATE TABLE "revocations" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"channel" text NOT NULL,
	"phone" text,
	"email" text,
	"words" text DEFAULT '' NOT NULL,
	"per_se_words" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text NOT NULL,
	"provider_message_id" text,
	"attempt_id" text,
	"received_at" timestamp with time zone NOT NULL,
	"deadline" date NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "revocations_someone_check" CHECK ("revocations"."phone" is not null or "revocations"."email" is not null)
);
--> statement-breakpoint
DROP INDEX "verification_attempts_form_phone_created_idx";--> statement-breakpoint
ALTER TABLE "revocations" ADD CONSTRAINT "revocations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "revocations_provider_message_idx" ON "revocations" USING btree ("provider_message_id") WHERE "revocations"."provider_message_id" is not null;--> statement-breakpoint
CREATE INDEX "revocations_account_received_idx" ON "revocations" USING btree ("account_id","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "revocations_account_phone_idx" ON "revocations" USING btree ("account_id","phone") WHERE "revocations"."phone" is not null;--> statement-breakpoint
CREATE INDEX "verification_attempts_phone_form_created_idx" ON "verification_attempts" USING btree ("cell_phone","verify_form_id","created_at" DESC NULLS LAST);