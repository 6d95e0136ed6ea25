CREATE TABLE "api_idempotency_keys" (
	"api_key_id" integer NOT NULL,
	"key" text NOT NULL,
	"request_hash" "bytea" NOT NULL,
	"state" text NOT NULL,
	"status_code" integer,
	"content_type" text,
	"body" "bytea",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_idempotency_keys_api_key_id_key_pk" PRIMARY KEY("api_key_id","key"),
	CONSTRAINT "api_idempotency_keys_state_check" CHECK ("api_idempotency_keys"."state" in ('running', 'done')),
	CONSTRAINT "api_idempotency_keys_done_check" CHECK ("api_idempotency_keys"."state" = 'running' or ("api_idempotency_keys"."status_code" is not null and "api_idempotency_keys"."body" is not null))
);
--> statement-breakpoint
ALTER TABLE "api_idempotency_keys" ADD CONSTRAINT "api_idempotency_keys_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_idempotency_keys_created_idx" ON "api_idempotency_keys" USING btree ("created_at");