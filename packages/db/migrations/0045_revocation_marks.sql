CREATE TABLE "revocation_marks" (
	"verification_id" bigint PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"is_test" boolean NOT NULL,
	"revocation_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "revocation_marks" ADD CONSTRAINT "revocation_marks_verification_id_verifications_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."verifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revocation_marks" ADD CONSTRAINT "revocation_marks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revocation_marks" ADD CONSTRAINT "revocation_marks_revocation_id_revocations_id_fk" FOREIGN KEY ("revocation_id") REFERENCES "public"."revocations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "revocation_marks_account_idx" ON "revocation_marks" USING btree ("account_id","is_test","verification_id");--> statement-breakpoint
CREATE INDEX "revocation_marks_revocation_idx" ON "revocation_marks" USING btree ("revocation_id");--> statement-breakpoint
-- The marks of the revocations recorded before this migration: for every verification of a revoked number or address,
-- its first revoking revocation since it (apps/server/src/modules/revocations/standing.ts's rule as of this migration;
-- the app keeps the marks from here on, modules/revocations/marks.ts).
INSERT INTO "revocation_marks" ("verification_id", "account_id", "is_test", "revocation_id", "received_at")
SELECT v.id, v.account_id, v.is_test, first.id, first.received_at
FROM "verifications" v
CROSS JOIN LATERAL (
  SELECT f.id, f.received_at FROM (
    (SELECT r.id, r.received_at FROM "revocations" r
      WHERE r.account_id = v.account_id AND r.phone = v.cell_phone AND r.received_at >= v.verified_at
        AND r.is_test = v.is_test AND r.status IN ('open', 'acknowledged')
      ORDER BY r.received_at, r.id LIMIT 1)
    UNION ALL
    (SELECT r.id, r.received_at FROM "revocations" r
      WHERE r.account_id = v.account_id AND r.email = v.email AND r.received_at >= v.verified_at
        AND r.is_test = v.is_test AND r.status IN ('open', 'acknowledged')
      ORDER BY r.received_at, r.id LIMIT 1)
  ) f ORDER BY f.received_at, f.id LIMIT 1
) first
-- Only the verifications of revoked numbers and addresses are judged, each found by its index.
WHERE v.id IN (
  SELECT rv.id FROM "revocations" r JOIN "verifications" rv ON rv.account_id = r.account_id AND rv.cell_phone = r.phone
  UNION
  SELECT rv.id FROM "revocations" r JOIN "verifications" rv ON rv.account_id = r.account_id AND rv.email = r.email
);
