-- The results lists' keyset index holds live results only, and each one's patient: a list's capped count
-- is then an index-only scan. The patient search's trigram index takes new patients in as they are saved
-- (no pending list for a search to read besides the index).
DROP INDEX "survey_results_created_idx";--> statement-breakpoint
DROP INDEX "patients_search_idx";--> statement-breakpoint
CREATE INDEX "survey_results_live_idx" ON "survey_results" USING btree ("tenant_id","created_at","id","patient_id") WHERE "survey_results"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "patients_search_idx" ON "patients" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);