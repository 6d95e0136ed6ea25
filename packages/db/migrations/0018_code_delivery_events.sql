CREATE TABLE "code_delivery_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "code_delivery_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"attempt_id" text NOT NULL,
	"status" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"error_code" text,
	"provider_message_id" text
);
--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "delivery_status" text DEFAULT 'queued' NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "delivery_error_code" text;--> statement-breakpoint
ALTER TABLE "code_delivery_events" ADD CONSTRAINT "code_delivery_events_attempt_id_verification_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."verification_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "code_delivery_events_attempt_idx" ON "code_delivery_events" USING btree ("attempt_id","at");--> statement-breakpoint
CREATE INDEX "verification_attempts_provider_message_idx" ON "verification_attempts" USING btree ("provider_message_id") WHERE "verification_attempts"."provider_message_id" is not null;--> statement-breakpoint
-- Codes sent before delivery statuses existed: the provider took them, nothing more is known.
UPDATE "verification_attempts" SET "delivery_status" = 'sent' WHERE "sent_at" IS NOT NULL;
