CREATE TABLE "test_phone_numbers" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"cell_phone" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"verify_form_id" integer NOT NULL,
	"cell_phone" text NOT NULL,
	"method" text NOT NULL,
	"email" text,
	"external_ref_id" text DEFAULT '' NOT NULL,
	"code_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"wrong_tries" integer DEFAULT 0 NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"provider_message_id" text,
	"send_error" text,
	"verified_at" timestamp with time zone,
	"verification_id" bigint
);
--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "test_phone_numbers" ADD CONSTRAINT "test_phone_numbers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD CONSTRAINT "verification_attempts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD CONSTRAINT "verification_attempts_verify_form_id_verify_forms_id_fk" FOREIGN KEY ("verify_form_id") REFERENCES "public"."verify_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD CONSTRAINT "verification_attempts_verification_id_verifications_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."verifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "test_phone_numbers_account_phone_idx" ON "test_phone_numbers" USING btree ("account_id","cell_phone");--> statement-breakpoint
CREATE INDEX "verification_attempts_form_phone_created_idx" ON "verification_attempts" USING btree ("verify_form_id","cell_phone","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "verification_attempts_account_created_idx" ON "verification_attempts" USING btree ("account_id","created_at" DESC NULLS LAST);