CREATE INDEX "verifications_account_phone_prefix_idx" ON "verifications" USING btree ("account_id","cell_phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "verifications_account_phone_suffix_idx" ON "verifications" USING btree ("account_id",reverse("cell_phone") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "verifications_account_ref_prefix_idx" ON "verifications" USING btree ("account_id",lower("external_ref_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "verifications_account_ref_id_idx" ON "verifications" USING btree ("account_id","external_ref_id","id");--> statement-breakpoint
CREATE INDEX "verifications_account_form_id_idx" ON "verifications" USING btree ("account_id","verify_form_id","id");--> statement-breakpoint
CREATE INDEX "verifications_account_form_name_id_idx" ON "verifications" USING btree ("account_id","verify_form_name","id");--> statement-breakpoint
CREATE INDEX "verifications_account_category_id_idx" ON "verifications" USING btree ("account_id","verify_form_category","id");