CREATE TABLE "certificate_chain_heads" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"seq" integer NOT NULL,
	"sha256" text
);
--> statement-breakpoint
CREATE TABLE "certificate_signing_keys" (
	"key_id" text PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "verification_certificates" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"verification_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"prev_hash" text,
	"content" text NOT NULL,
	"sha256" text NOT NULL,
	"key_id" text NOT NULL,
	"signature" text NOT NULL,
	"unlock_salt" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_certificates_seq_check" CHECK ("verification_certificates"."seq" >= 1)
);
--> statement-breakpoint
ALTER TABLE "certificate_chain_heads" ADD CONSTRAINT "certificate_chain_heads_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_certificates" ADD CONSTRAINT "verification_certificates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_certificates" ADD CONSTRAINT "verification_certificates_verification_id_verifications_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."verifications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_certificates" ADD CONSTRAINT "verification_certificates_key_id_certificate_signing_keys_key_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."certificate_signing_keys"("key_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "verification_certificates_verification_idx" ON "verification_certificates" USING btree ("verification_id");--> statement-breakpoint
CREATE UNIQUE INDEX "verification_certificates_account_seq_idx" ON "verification_certificates" USING btree ("account_id","seq");--> statement-breakpoint
-- A certificate is never changed or removed once issued (ADR 24): its signature would fail anyway, but an UPDATE or
-- DELETE is refused outright, except the removal cascading from its account's.
CREATE FUNCTION "verification_certificates_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM "accounts" WHERE "id" = OLD."account_id") THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'verification_certificates is immutable: % refused', TG_OP USING ERRCODE = '42501';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "verification_certificates_immutable" BEFORE UPDATE OR DELETE ON "verification_certificates"
  FOR EACH ROW EXECUTE FUNCTION "verification_certificates_immutable"();
