-- An audit event in one statement (issue #20 item 3, ADR 19). The account's chain head was locked by one statement
-- and written by the next, with the server computing the event's hash in between: the lock was held across two round
-- trips to a busy process and the commit's, and in the load mix detail views waited ~40 ms on average for it. Now the
-- server sends the event's canonical JSON with two markers where the sequence and the previous hash go
-- (apps/server/src/modules/audit/chain.ts, chainTemplate); this function locks the head, fills them in, hashes the text
-- (SHA-256 of its UTF-8 bytes, as hashEvent does) and writes the event and the new head, in one call.
CREATE OR REPLACE FUNCTION public.append_audit_event(p_account_id integer, p_occurred_at timestamp with time zone, p_actor_type text, p_actor_id text, p_actor_name text, p_action text, p_target_type text, p_target_id text, p_targets jsonb, p_changes jsonb, p_ip text, p_user_agent text, p_request_id text, p_template text, p_sequence_marker text, p_prev_hash_marker text)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_sequence bigint;
  v_prev_hash text;
  v_hash text;
BEGIN
  -- Creates the head on the account's first event, and either way locks it and reads the chain's end.
  INSERT INTO "audit_chain_heads" AS h ("account_id", "sequence", "hash") VALUES (p_account_id, 0, repeat('0', 64))
  ON CONFLICT ("account_id") DO UPDATE SET "account_id" = excluded."account_id"
  RETURNING h."sequence" + 1, h."hash" INTO v_sequence, v_prev_hash;
  v_hash := encode(sha256(convert_to(
    replace(replace(p_template, p_sequence_marker, v_sequence::text), p_prev_hash_marker, v_prev_hash), 'UTF8')), 'hex');
  INSERT INTO "audit_events" ("account_id", "sequence", "occurred_at", "actor_type", "actor_id", "actor_name", "action",
    "target_type", "target_id", "targets", "changes", "ip", "user_agent", "request_id", "prev_hash", "hash")
  VALUES (p_account_id, v_sequence, p_occurred_at, p_actor_type, p_actor_id, p_actor_name, p_action, p_target_type,
    p_target_id, p_targets, p_changes, p_ip, p_user_agent, p_request_id, v_prev_hash, v_hash);
  UPDATE "audit_chain_heads" SET "sequence" = v_sequence, "hash" = v_hash WHERE "account_id" = p_account_id;
  RETURN v_sequence;
END
$function$;
