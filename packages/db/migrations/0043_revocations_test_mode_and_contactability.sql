CREATE TABLE "contactability_checks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contactability_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"is_test" boolean NOT NULL,
	"asked_by" text NOT NULL,
	"phone" text NOT NULL,
	"channel" text NOT NULL,
	"purpose" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"allowed" boolean NOT NULL,
	"reasons" jsonb NOT NULL,
	"verification_id" text,
	"verified_at" timestamp with time zone,
	"certificate_id" text,
	"revocation_id" text,
	"revoked_at" timestamp with time zone,
	"time_zone" text,
	"local_time" text,
	"state" text,
	"within_calling_window" boolean,
	"next_allowed_at" timestamp with time zone,
	"rules_version" text NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "revocations_account_received_idx";--> statement-breakpoint
DROP INDEX "revocations_account_phone_idx";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "consent_max_age_months" integer DEFAULT 18 NOT NULL;--> statement-breakpoint
ALTER TABLE "revocations" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "revocations" ADD COLUMN "overdue_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contactability_checks" ADD CONSTRAINT "contactability_checks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contactability_checks_account_id_idx" ON "contactability_checks" USING btree ("account_id","is_test","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "contactability_checks_account_phone_idx" ON "contactability_checks" USING btree ("account_id","phone");--> statement-breakpoint
CREATE INDEX "revocations_overdue_due_idx" ON "revocations" USING btree ("deadline") WHERE "revocations"."status" = 'open' and "revocations"."overdue_notified_at" is null;--> statement-breakpoint
CREATE INDEX "revocations_account_email_idx" ON "revocations" USING btree ("account_id","email","received_at") WHERE "revocations"."email" is not null;--> statement-breakpoint
CREATE INDEX "verification_attempts_verification_idx" ON "verification_attempts" USING btree ("verification_id") WHERE "verification_attempts"."verification_id" is not null;--> statement-breakpoint
CREATE INDEX "revocations_account_received_idx" ON "revocations" USING btree ("account_id","is_test","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "revocations_account_phone_idx" ON "revocations" USING btree ("account_id","phone","received_at") WHERE "revocations"."phone" is not null;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_consent_max_age_months_check" CHECK ("accounts"."consent_max_age_months" between 1 and 60);