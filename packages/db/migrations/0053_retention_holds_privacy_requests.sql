CREATE TABLE "legal_holds" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"scope" text NOT NULL,
	"verify_form_id" integer,
	"phone" text,
	"email" text,
	"verification_id" bigint,
	"reason" text NOT NULL,
	"placed_by" text NOT NULL,
	"placed_at" timestamp with time zone NOT NULL,
	"released_by" text,
	"released_at" timestamp with time zone,
	"release_reason" text,
	CONSTRAINT "legal_holds_scope_check" CHECK (case "legal_holds"."scope"
        when 'account' then "legal_holds"."verify_form_id" is null and "legal_holds"."phone" is null and "legal_holds"."email" is null and "legal_holds"."verification_id" is null
        when 'form' then "legal_holds"."verify_form_id" is not null and "legal_holds"."phone" is null and "legal_holds"."email" is null and "legal_holds"."verification_id" is null
        when 'identifier' then "legal_holds"."verify_form_id" is null and ("legal_holds"."phone" is null) <> ("legal_holds"."email" is null) and "legal_holds"."verification_id" is null
        else "legal_holds"."verify_form_id" is null and "legal_holds"."phone" is null and "legal_holds"."email" is null and "legal_holds"."verification_id" is not null
      end),
	CONSTRAINT "legal_holds_released_check" CHECK (("legal_holds"."released_at" is null) = ("legal_holds"."released_by" is null) and ("legal_holds"."released_at" is null) = ("legal_holds"."release_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "privacy_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"type" text NOT NULL,
	"law" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"phones" text[] DEFAULT '{}'::text[] NOT NULL,
	"emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"requester_name" text NOT NULL,
	"requester_email" text,
	"received_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"extended_at" timestamp with time zone,
	"extension_reason" text,
	"filed_by" text NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"matches" jsonb,
	"answer" jsonb,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_requests_extended_check" CHECK (("privacy_requests"."extended_at" is null) = ("privacy_requests"."extension_reason" is null)),
	CONSTRAINT "privacy_requests_answered_check" CHECK (("privacy_requests"."status" = 'answered') = ("privacy_requests"."answered_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "retention_purges" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "retention_purges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"ran_at" timestamp with time zone NOT NULL,
	"cutoff" timestamp with time zone NOT NULL,
	"retention_years" integer NOT NULL,
	"removed" jsonb NOT NULL,
	"held" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_restrictions" (
	"verification_id" bigint NOT NULL,
	"account_id" integer NOT NULL,
	"privacy_request_id" text NOT NULL,
	"restricted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "verification_restrictions_verification_id_privacy_request_id_pk" PRIMARY KEY("verification_id","privacy_request_id")
);
--> statement-breakpoint
ALTER TABLE "verification_certificates" DROP CONSTRAINT "verification_certificates_redacted_check";--> statement-breakpoint
ALTER TABLE "verification_certificates" DROP CONSTRAINT "verification_certificates_verification_id_verifications_id_fk";
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "retention_years" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "retention_below_four_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verification_certificates" ADD COLUMN "purged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_purges" ADD CONSTRAINT "retention_purges_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_restrictions" ADD CONSTRAINT "verification_restrictions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "legal_holds_account_active_idx" ON "legal_holds" USING btree ("account_id","scope") WHERE "legal_holds"."released_at" is null;--> statement-breakpoint
CREATE INDEX "legal_holds_account_placed_idx" ON "legal_holds" USING btree ("account_id","placed_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "privacy_requests_account_received_idx" ON "privacy_requests" USING btree ("account_id","is_test","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "privacy_requests_created_idx" ON "privacy_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "retention_purges_account_ran_idx" ON "retention_purges" USING btree ("account_id","ran_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "verification_restrictions_account_idx" ON "verification_restrictions" USING btree ("account_id","verification_id");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_retention_years_check" CHECK ("accounts"."retention_years" between 1 and 10);--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_retention_below_four_check" CHECK ("accounts"."retention_years" >= 4 or "accounts"."retention_below_four_confirmed_at" is not null);--> statement-breakpoint
ALTER TABLE "verification_certificates" ADD CONSTRAINT "verification_certificates_redacted_check" CHECK (("verification_certificates"."redacted_at" is null and "verification_certificates"."purged_at" is null) = ("verification_certificates"."content" is not null and "verification_certificates"."unlock_salt" is not null));