CREATE TABLE "account_domains" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"domain" text NOT NULL,
	"token" text NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verified_at" timestamp with time zone,
	"verified_by" text,
	"last_checked_at" timestamp with time zone,
	"last_check_result" text,
	CONSTRAINT "account_domains_domain_check" CHECK (length("account_domains"."domain") between 1 and 253),
	CONSTRAINT "account_domains_verified_check" CHECK (("account_domains"."verified_at" is null) = ("account_domains"."verified_by" is null))
);
--> statement-breakpoint
ALTER TABLE "account_domains" ADD CONSTRAINT "account_domains_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_domains" ADD CONSTRAINT "account_domains_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_domains_account_domain_idx" ON "account_domains" USING btree ("account_id","domain");