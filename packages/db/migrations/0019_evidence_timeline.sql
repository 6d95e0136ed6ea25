CREATE TABLE "code_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "code_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"attempt_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"correct" boolean NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "form_page_views" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"verify_form_id" integer NOT NULL,
	"language" text NOT NULL,
	"consent_version_id" text,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "code_delivery_events" ALTER COLUMN "attempt_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "test_phone_numbers" ADD COLUMN "simulated_error_code" text;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "page_view_id" text;--> statement-breakpoint
ALTER TABLE "code_entries" ADD CONSTRAINT "code_entries_attempt_id_verification_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."verification_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_page_views" ADD CONSTRAINT "form_page_views_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_page_views" ADD CONSTRAINT "form_page_views_verify_form_id_verify_forms_id_fk" FOREIGN KEY ("verify_form_id") REFERENCES "public"."verify_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "code_entries_attempt_idx" ON "code_entries" USING btree ("attempt_id","at");--> statement-breakpoint
CREATE INDEX "form_page_views_account_created_idx" ON "form_page_views" USING btree ("account_id","created_at","verify_form_id");--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD CONSTRAINT "verification_attempts_page_view_id_form_page_views_id_fk" FOREIGN KEY ("page_view_id") REFERENCES "public"."form_page_views"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "code_delivery_events_orphan_idx" ON "code_delivery_events" USING btree ("provider_message_id") WHERE "code_delivery_events"."attempt_id" is null;