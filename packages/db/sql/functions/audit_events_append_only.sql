-- Append-only (issue #16): the application has no UPDATE or DELETE of audit events, and the database refuses them.
-- Two deletes pass: an account's own removal (the foreign key's cascade, a trigger deeper than the statement) and the
-- retention job, which says so for its transaction (set_config('veriform.audit_prune', 'on', true)).
CREATE OR REPLACE FUNCTION public.audit_events_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' AND (pg_trigger_depth() > 1 OR current_setting('veriform.audit_prune', true) = 'on') THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = '42501';
END
$function$;
