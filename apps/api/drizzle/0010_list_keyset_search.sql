-- pg_trgm serves the patient search (patients_search_idx); PGlite loads it as an extension of its constructor.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "patients_name_idx";--> statement-breakpoint
DROP INDEX "survey_results_created_idx";--> statement-breakpoint
DROP INDEX "survey_results_patient_idx";--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "search_text" text GENERATED ALWAYS AS (translate(lower(last_name || ' ' || first_name || ' ' || mrn || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g')), 'áÁàÀâÂäÄãÃåÅāĀăĂąĄçÇćĆčČĉĈċĊďĎđĐéÉèÈêÊëËēĒėĖęĘěĚĕĔğĞĝĜġĠģĢĥĤħĦíÍìÌîÎïÏīĪįĮıIĩĨĭĬĵĴķĶĺĹļĻľĽłŁŀĿñÑńŃňŇņŅóÓòÒôÔöÖõÕøØōŌőŐŏŎŕŔřŘŗŖśŚšŠşŞŝŜșȘťŤţŢțȚúÚùÙûÛüÜūŪůŮűŰųŲũŨŭŬŵŴýÝÿŸŷŶźŹžŽżŻ', 'aaaaaaaaaaaaaaaaaaccccccccccddddeeeeeeeeeeeeeeeeeegggggggghhhhiiiiiiiiiiiiiiiiiijjkkllllllllllnnnnnnnnoooooooooooooooooorrrrrrssssssssssttttttuuuuuuuuuuuuuuuuuuuuwwyyyyyyzzzzzz')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "patients_first_name_idx" ON "patients" USING btree ("tenant_id","first_name","last_name","id") WHERE "patients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "patients_dob_idx" ON "patients" USING btree ("tenant_id","dob","last_name","first_name","id") WHERE "patients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "patients_search_idx" ON "patients" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patients_removed_idx" ON "patients" USING btree ("tenant_id","id") WHERE "patients"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "survey_results_survey_idx" ON "survey_results" USING btree ("tenant_id","survey_id","created_at","id");--> statement-breakpoint
CREATE INDEX "patients_name_idx" ON "patients" USING btree ("tenant_id","last_name","first_name","id") WHERE "patients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "survey_results_created_idx" ON "survey_results" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "survey_results_patient_idx" ON "survey_results" USING btree ("tenant_id","patient_id","created_at","id");