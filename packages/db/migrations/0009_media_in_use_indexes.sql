CREATE INDEX "accounts_uploaded_profile_image_idx" ON "accounts" USING btree ("uploaded_profile_image") WHERE "accounts"."uploaded_profile_image" is not null;--> statement-breakpoint
CREATE INDEX "users_uploaded_profile_image_idx" ON "users" USING btree ("uploaded_profile_image") WHERE "users"."uploaded_profile_image" is not null;--> statement-breakpoint
CREATE INDEX "verify_forms_banner_image_idx" ON "verify_forms" USING btree ("banner_image") WHERE "verify_forms"."banner_image" is not null;--> statement-breakpoint
-- Invitations sent by someone who can no longer invite (removed, demoted, or deleted before accepting re-checked the
-- inviter) stayed open in the owners' lists; accepting already refuses them as revoked. Say so in the data too.
UPDATE "invitations" SET "revoked_at" = now()
WHERE "accepted_at" IS NULL AND "revoked_at" IS NULL
  AND NOT EXISTS (
    SELECT 1 FROM "memberships" m
    WHERE m."user_id" = "invitations"."invited_by_user_id" AND m."account_id" = "invitations"."account_id"
      AND m."role" = 'owner'
  );
