-- A result carries its patient's name, MRN, date of birth and removal (survey_results.patient_*), so a
-- results list page, its count, its CSV export and a report read survey_results alone instead of looking
-- up every row's patient (at a million results, most of a page's time). Triggers keep the copy: the API
-- never writes these columns. Whatever writes a result or a patient (the API, psql, a restore that loads
-- data with its triggers on) leaves every result showing its patient as the patients table holds them,
-- in the same transaction.
DROP INDEX "survey_results_live_idx";--> statement-breakpoint
ALTER TABLE "survey_results" ADD COLUMN "patient_first_name" text;--> statement-breakpoint
ALTER TABLE "survey_results" ADD COLUMN "patient_last_name" text;--> statement-breakpoint
ALTER TABLE "survey_results" ADD COLUMN "patient_mrn" text;--> statement-breakpoint
ALTER TABLE "survey_results" ADD COLUMN "patient_dob" date;--> statement-breakpoint
ALTER TABLE "survey_results" ADD COLUMN "patient_removed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "survey_results" r SET "patient_first_name" = p."first_name", "patient_last_name" = p."last_name",
  "patient_mrn" = p."mrn", "patient_dob" = p."dob", "patient_removed" = p."deleted_at" IS NOT NULL
  FROM "patients" p WHERE p."tenant_id" = r."tenant_id" AND p."id" = r."patient_id";--> statement-breakpoint
-- A result saved, or moved to another patient or practice, or its copy written by anything but this
-- function's callers: the copy is (re)read from the patient. FOR SHARE waits for a transaction changing
-- that patient to end and then reads what it wrote; a change of the patient that starts later waits
-- for this result's transaction, and its trigger below then sees this result. Either way the result
-- does not keep a name, or a removal, that the patient no longer has.
CREATE FUNCTION "core_care_result_patient"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p record;
BEGIN
  SELECT first_name, last_name, mrn, dob, deleted_at IS NOT NULL AS removed INTO p
    FROM patients WHERE tenant_id = NEW.tenant_id AND id = NEW.patient_id FOR SHARE;
  IF FOUND THEN
    NEW.patient_first_name := p.first_name;
    NEW.patient_last_name := p.last_name;
    NEW.patient_mrn := p.mrn;
    NEW.patient_dob := p.dob;
    NEW.patient_removed := p.removed;
  ELSE
    NEW.patient_first_name := NULL;
    NEW.patient_last_name := NULL;
    NEW.patient_mrn := NULL;
    NEW.patient_dob := NULL;
    NEW.patient_removed := false;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "survey_results_patient" BEFORE INSERT ON "survey_results" FOR EACH ROW
  EXECUTE FUNCTION "core_care_result_patient"();--> statement-breakpoint
CREATE TRIGGER "survey_results_patient_changed" BEFORE UPDATE ON "survey_results" FOR EACH ROW
  WHEN (OLD.tenant_id IS DISTINCT FROM NEW.tenant_id OR OLD.patient_id IS DISTINCT FROM NEW.patient_id
    OR OLD.patient_first_name IS DISTINCT FROM NEW.patient_first_name
    OR OLD.patient_last_name IS DISTINCT FROM NEW.patient_last_name
    OR OLD.patient_mrn IS DISTINCT FROM NEW.patient_mrn OR OLD.patient_dob IS DISTINCT FROM NEW.patient_dob
    OR OLD.patient_removed IS DISTINCT FROM NEW.patient_removed)
  EXECUTE FUNCTION "core_care_result_patient"();--> statement-breakpoint
-- A patient saved, changed, removed, restored, moved or deleted: their results' copies follow (the
-- results of a patient id that no longer exists show no patient, as before the copy).
CREATE FUNCTION "core_care_patient_results"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    UPDATE survey_results SET patient_first_name = NULL, patient_last_name = NULL, patient_mrn = NULL,
        patient_dob = NULL, patient_removed = false
      WHERE patient_first_name IS NOT NULL OR patient_last_name IS NOT NULL OR patient_mrn IS NOT NULL
        OR patient_dob IS NOT NULL OR patient_removed;
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE'
      AND (OLD.tenant_id IS DISTINCT FROM NEW.tenant_id OR OLD.id IS DISTINCT FROM NEW.id)) THEN
    UPDATE survey_results SET patient_first_name = NULL, patient_last_name = NULL, patient_mrn = NULL,
        patient_dob = NULL, patient_removed = false
      WHERE tenant_id = OLD.tenant_id AND patient_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE survey_results SET patient_first_name = NEW.first_name, patient_last_name = NEW.last_name,
        patient_mrn = NEW.mrn, patient_dob = NEW.dob, patient_removed = NEW.deleted_at IS NOT NULL
      WHERE tenant_id = NEW.tenant_id AND patient_id = NEW.id
        AND (patient_first_name, patient_last_name, patient_mrn, patient_dob, patient_removed)
          IS DISTINCT FROM (NEW.first_name, NEW.last_name, NEW.mrn, NEW.dob, NEW.deleted_at IS NOT NULL);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "patients_results" AFTER INSERT OR DELETE ON "patients" FOR EACH ROW
  EXECUTE FUNCTION "core_care_patient_results"();--> statement-breakpoint
CREATE TRIGGER "patients_results_changed" AFTER UPDATE ON "patients" FOR EACH ROW
  WHEN (OLD.tenant_id IS DISTINCT FROM NEW.tenant_id OR OLD.id IS DISTINCT FROM NEW.id
    OR OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
    OR OLD.mrn IS DISTINCT FROM NEW.mrn OR OLD.dob IS DISTINCT FROM NEW.dob
    OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
  EXECUTE FUNCTION "core_care_patient_results"();--> statement-breakpoint
CREATE TRIGGER "patients_results_truncate" AFTER TRUNCATE ON "patients" FOR EACH STATEMENT
  EXECUTE FUNCTION "core_care_patient_results"();--> statement-breakpoint
CREATE INDEX "survey_results_live_idx" ON "survey_results" USING btree ("tenant_id","created_at","id") WHERE "survey_results"."deleted_at" is null and not "survey_results"."patient_removed";
