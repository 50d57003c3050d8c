-- Every API process remembers which lists of a practice (its results, its patients) hold more than the
-- capped count's 1,000 rows (services/capped-lists.ts), so their pages answer "1,000+" without counting
-- again. New rows only lengthen a list; these triggers tell every process, through NOTIFY on the channel
-- core_care_lists, the moment a practice's lists may have shortened, whoever changed them: a result
-- removed, restored, deleted or moved (its date, patient, survey or practice), a patient removed,
-- restored, deleted or moved. Payload: the tenant id, or '*' for every practice (a TRUNCATE). PostgreSQL
-- sends one notification per payload and transaction, however many rows changed.
CREATE FUNCTION "core_care_notify_lists"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('core_care_lists', '*');
  ELSE
    PERFORM pg_notify('core_care_lists', OLD.tenant_id);
    IF TG_OP = 'UPDATE' AND NEW.tenant_id IS DISTINCT FROM OLD.tenant_id THEN
      PERFORM pg_notify('core_care_lists', NEW.tenant_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "survey_results_lists_notify" AFTER UPDATE ON "survey_results" FOR EACH ROW
  WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.patient_id IS DISTINCT FROM NEW.patient_id OR OLD.survey_id IS DISTINCT FROM NEW.survey_id
    OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id)
  EXECUTE FUNCTION "core_care_notify_lists"();--> statement-breakpoint
CREATE TRIGGER "survey_results_lists_notify_delete" AFTER DELETE ON "survey_results" FOR EACH ROW
  EXECUTE FUNCTION "core_care_notify_lists"();--> statement-breakpoint
CREATE TRIGGER "survey_results_lists_notify_truncate" AFTER TRUNCATE ON "survey_results" FOR EACH STATEMENT
  EXECUTE FUNCTION "core_care_notify_lists"();--> statement-breakpoint
CREATE TRIGGER "patients_lists_notify" AFTER UPDATE ON "patients" FOR EACH ROW
  WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id
    OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION "core_care_notify_lists"();--> statement-breakpoint
CREATE TRIGGER "patients_lists_notify_delete" AFTER DELETE ON "patients" FOR EACH ROW
  EXECUTE FUNCTION "core_care_notify_lists"();--> statement-breakpoint
CREATE TRIGGER "patients_lists_notify_truncate" AFTER TRUNCATE ON "patients" FOR EACH STATEMENT
  EXECUTE FUNCTION "core_care_notify_lists"();
