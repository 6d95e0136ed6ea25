ALTER TABLE "privacy_requests" ADD COLUMN "running_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD COLUMN "erased_so_far" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A request running when this migration runs began no later than now.
UPDATE "privacy_requests" SET "running_since" = now() WHERE "status" = 'running';--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_running_check" CHECK (("privacy_requests"."status" = 'running') = ("privacy_requests"."running_since" is not null));