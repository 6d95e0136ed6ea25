CREATE TABLE "lookup_settings" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"line_type" boolean DEFAULT false NOT NULL,
	"sim_swap" boolean DEFAULT false NOT NULL,
	"sim_swap_window_days" integer DEFAULT 7 NOT NULL,
	"refuse_on_sim_swap" boolean DEFAULT false NOT NULL,
	"reassigned_checks" boolean DEFAULT false NOT NULL,
	"reassigned_max_age_days" integer DEFAULT 30 NOT NULL,
	"ceiling_line_type" integer DEFAULT 1000 NOT NULL,
	"ceiling_sim_swap" integer DEFAULT 1000 NOT NULL,
	"ceiling_reassigned" integer DEFAULT 1000 NOT NULL,
	CONSTRAINT "lookup_settings_sim_swap_window_days_check" CHECK ("lookup_settings"."sim_swap_window_days" between 1 and 90),
	CONSTRAINT "lookup_settings_reassigned_max_age_days_check" CHECK ("lookup_settings"."reassigned_max_age_days" between 1 and 365),
	CONSTRAINT "lookup_settings_ceilings_check" CHECK ("lookup_settings"."ceiling_line_type" between 0 and 1000000 and "lookup_settings"."ceiling_sim_swap" between 0 and 1000000 and "lookup_settings"."ceiling_reassigned" between 0 and 1000000)
);
--> statement-breakpoint
CREATE TABLE "lookup_usage" (
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"month" date NOT NULL,
	"asked" integer NOT NULL,
	CONSTRAINT "lookup_usage_account_id_kind_month_pk" PRIMARY KEY("account_id","kind","month"),
	CONSTRAINT "lookup_usage_asked_check" CHECK ("lookup_usage"."asked" >= 0)
);
--> statement-breakpoint
CREATE TABLE "lookups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lookups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"kind" text NOT NULL,
	"phone" text NOT NULL,
	"last_verified_date" date,
	"status" text NOT NULL,
	"provider" text NOT NULL,
	"answer" jsonb,
	"line_type" text,
	"carrier_name" text,
	"last_sim_swap_at" timestamp with time zone,
	"sim_swapped_period" text,
	"sim_swapped_in_period" boolean,
	"reassigned" text,
	"error_code" integer,
	"failure" text,
	"asked_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "lookups_last_verified_date_check" CHECK (("lookups"."kind" = 'reassigned') = ("lookups"."last_verified_date" is not null)),
	CONSTRAINT "lookups_answered_check" CHECK (("lookups"."status" = 'pending') = ("lookups"."answered_at" is null))
);
--> statement-breakpoint
ALTER TABLE "lookup_settings" ADD CONSTRAINT "lookup_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lookup_usage" ADD CONSTRAINT "lookup_usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lookups" ADD CONSTRAINT "lookups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lookups_question_idx" ON "lookups" USING btree ("account_id","kind","phone","asked_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "lookups_in_flight_idx" ON "lookups" USING btree ("account_id","is_test","kind","phone",coalesce("last_verified_date", '-infinity'::date)) WHERE "lookups"."status" = 'pending';