CREATE TABLE "refresh_links" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refresh_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_sha256" text NOT NULL,
	"account_id" integer NOT NULL,
	"is_test" boolean NOT NULL,
	"attempt_id" text NOT NULL,
	"verify_form_id" integer NOT NULL,
	"external_ref_id" text DEFAULT '' NOT NULL,
	"created_by_user_id" integer,
	"created_by_api_key_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"first_used_at" timestamp with time zone,
	CONSTRAINT "refresh_links_creator_check" CHECK ("refresh_links"."created_by_user_id" is null or "refresh_links"."created_by_api_key_id" is null)
);
--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "refreshes" text;--> statement-breakpoint
ALTER TABLE "refresh_links" ADD CONSTRAINT "refresh_links_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_links" ADD CONSTRAINT "refresh_links_attempt_id_verification_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."verification_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_links" ADD CONSTRAINT "refresh_links_verify_form_id_verify_forms_id_fk" FOREIGN KEY ("verify_form_id") REFERENCES "public"."verify_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_links" ADD CONSTRAINT "refresh_links_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_links" ADD CONSTRAINT "refresh_links_created_by_api_key_id_api_keys_id_fk" FOREIGN KEY ("created_by_api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_links_token_idx" ON "refresh_links" USING btree ("token_sha256");--> statement-breakpoint
CREATE INDEX "refresh_links_attempt_idx" ON "refresh_links" USING btree ("attempt_id");--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD CONSTRAINT "verification_attempts_refreshes_verification_attempts_id_fk" FOREIGN KEY ("refreshes") REFERENCES "public"."verification_attempts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_attempts_refreshes_idx" ON "verification_attempts" USING btree ("refreshes") WHERE "verification_attempts"."refreshes" is not null;