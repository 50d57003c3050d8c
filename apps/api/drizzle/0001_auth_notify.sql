-- Every API process keeps the sessions and memberships it has read in memory (services/auth-cache.ts).
-- These triggers tell every process, through NOTIFY on the channel core_care_auth, the moment a session
-- row, a user or a membership changes or goes, whoever changed it, so a sign-out or a revoked role
-- takes effect at once everywhere. Payload: 's:' || sid, or 'u:' || user id.
CREATE FUNCTION "core_care_notify_session"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('core_care_auth', 's:' || OLD.sid);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "core_care_notify_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('core_care_auth', 'u:' || OLD.id);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('core_care_auth', 'u:' || NEW.user_id);
  ELSE
    PERFORM pg_notify('core_care_auth', 'u:' || OLD.user_id);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_notify" AFTER UPDATE OR DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "core_care_notify_session"();--> statement-breakpoint
CREATE TRIGGER "users_notify" AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "core_care_notify_user"();--> statement-breakpoint
CREATE TRIGGER "user_tenants_notify" AFTER INSERT OR UPDATE OR DELETE ON "user_tenants"
  FOR EACH ROW EXECUTE FUNCTION "core_care_notify_user"();
