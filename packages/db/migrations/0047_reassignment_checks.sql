CREATE TABLE "reassignment_checks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reassignment_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"is_test" boolean NOT NULL,
	"attempt_id" text NOT NULL,
	"lookup_id" bigint NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reassignment_checks" ADD CONSTRAINT "reassignment_checks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reassignment_checks" ADD CONSTRAINT "reassignment_checks_attempt_id_verification_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."verification_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reassignment_checks" ADD CONSTRAINT "reassignment_checks_lookup_id_lookups_id_fk" FOREIGN KEY ("lookup_id") REFERENCES "public"."lookups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reassignment_checks_attempt_lookup_idx" ON "reassignment_checks" USING btree ("attempt_id","lookup_id");--> statement-breakpoint
CREATE INDEX "reassignment_checks_attempt_idx" ON "reassignment_checks" USING btree ("attempt_id","checked_at" DESC NULLS LAST,"id" DESC NULLS LAST);