CREATE TABLE "verifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "verifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"verify_form_id" integer NOT NULL,
	"cell_phone" text NOT NULL,
	"external_ref_id" text DEFAULT '' NOT NULL,
	"verify_form_name" text NOT NULL,
	"verify_form_category" text DEFAULT '' NOT NULL,
	"verification_method" text NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"code_sent_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verify_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_id" text NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"is_live" boolean DEFAULT false NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"banner_image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_verify_form_id_verify_forms_id_fk" FOREIGN KEY ("verify_form_id") REFERENCES "public"."verify_forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verify_forms" ADD CONSTRAINT "verify_forms_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verifications_account_created_idx" ON "verifications" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "verifications_account_form_created_idx" ON "verifications" USING btree ("account_id","verify_form_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "verifications_account_phone_idx" ON "verifications" USING btree ("account_id","cell_phone");--> statement-breakpoint
CREATE UNIQUE INDEX "verify_forms_public_id_idx" ON "verify_forms" USING btree ("public_id");--> statement-breakpoint
CREATE INDEX "verify_forms_account_created_idx" ON "verify_forms" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "verify_forms_account_category_idx" ON "verify_forms" USING btree ("account_id","category");