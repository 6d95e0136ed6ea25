-- A search's reference reading on attempts (lower(external_ref_id) LIKE 'prefix%'), as verifications have had since
-- the activity log's search: at 10M attempts the report's funnel for a search that names a form, and the attempts
-- view's search by reference, read the range's every attempt (1.4 s; docs/benchmarks.md, session 22).
CREATE INDEX "verification_attempts_account_ref_prefix_idx" ON "verification_attempts" USING btree ("account_id",lower("external_ref_id") text_pattern_ops);