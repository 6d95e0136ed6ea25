CREATE TABLE "consent_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"verify_form_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"language" text NOT NULL,
	"version" integer NOT NULL,
	"text" text NOT NULL,
	"sha256" text NOT NULL,
	"require_checkbox" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "consent_versions_version_check" CHECK ("consent_versions"."version" >= 1)
);
--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "consent_version_id" text;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "consent_version" integer;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "consent_language" text;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "consent_sha256" text;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "consent_version_id" text;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "consent_version" integer;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "consent_language" text;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "consent_sha256" text;--> statement-breakpoint
ALTER TABLE "consent_versions" ADD CONSTRAINT "consent_versions_verify_form_id_verify_forms_id_fk" FOREIGN KEY ("verify_form_id") REFERENCES "public"."verify_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_versions" ADD CONSTRAINT "consent_versions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_versions" ADD CONSTRAINT "consent_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "consent_versions_form_language_version_idx" ON "consent_versions" USING btree ("verify_form_id","language","version");--> statement-breakpoint
-- Immutable (issue #18, ADR 22): a published consent version is evidence of what consumers agreed to, so the database
-- refuses to change or remove one. Two writes pass: a DELETE once the version's form or account row is already gone
-- (their ON DELETE CASCADE runs after the parent's removal), and the creator's user id becoming NULL with nothing
-- else changed (created_by's ON DELETE SET NULL when that user is deleted).
CREATE FUNCTION "consent_versions_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND (
    NOT EXISTS (SELECT 1 FROM "verify_forms" WHERE "id" = OLD."verify_form_id")
    OR NOT EXISTS (SELECT 1 FROM "accounts" WHERE "id" = OLD."account_id")
  ) THEN
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW."created_by" IS NULL
    AND (to_jsonb(NEW) - 'created_by') = (to_jsonb(OLD) - 'created_by') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'consent_versions is immutable: % refused', TG_OP USING ERRCODE = '42501';
END
$$;--> statement-breakpoint
CREATE TRIGGER "consent_versions_immutable" BEFORE UPDATE OR DELETE ON "consent_versions"
  FOR EACH ROW EXECUTE FUNCTION "consent_versions_immutable"();
