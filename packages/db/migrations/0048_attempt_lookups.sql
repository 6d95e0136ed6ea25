ALTER TABLE "verification_attempts" ADD COLUMN "line_type_lookup_id" bigint;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "sim_swap_lookup_id" bigint;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "sim_swap_within_window" boolean;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "sim_swap_window_days" integer;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD CONSTRAINT "verification_attempts_line_type_lookup_id_lookups_id_fk" FOREIGN KEY ("line_type_lookup_id") REFERENCES "public"."lookups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD CONSTRAINT "verification_attempts_sim_swap_lookup_id_lookups_id_fk" FOREIGN KEY ("sim_swap_lookup_id") REFERENCES "public"."lookups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_attempts_line_type_lookup_idx" ON "verification_attempts" USING btree ("line_type_lookup_id") WHERE "verification_attempts"."line_type_lookup_id" is not null;--> statement-breakpoint
CREATE INDEX "verification_attempts_sim_swap_lookup_idx" ON "verification_attempts" USING btree ("sim_swap_lookup_id") WHERE "verification_attempts"."sim_swap_lookup_id" is not null;--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD CONSTRAINT "verification_attempts_sim_swap_judged_check" CHECK (("verification_attempts"."sim_swap_within_window" is null) = ("verification_attempts"."sim_swap_window_days" is null));