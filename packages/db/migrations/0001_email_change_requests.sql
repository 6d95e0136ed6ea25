CREATE TABLE "email_change_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"from_email" text NOT NULL,
	"to_email" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"successfully_changed_at" timestamp with time zone,
	"last_requested_a_new_from_or_to_email_at" timestamp with time zone,
	"last_sent_a_change_email_at" timestamp with time zone,
	"last_successfully_changed_at" timestamp with time zone,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_change_requests_user_id_key" UNIQUE("user_id")
);
--> statement-breakpoint
ALTER TABLE "email_change_requests" ADD CONSTRAINT "email_change_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;