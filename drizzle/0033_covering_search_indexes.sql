-- Searches read from indexes alone (app/models/word-search.server.ts, ADR 0008): a patient's
-- appointments and surgeries carry their doctor, status (and stage) and own key; an appointment's
-- own key its doctor, patient and status; a doctor's surgeries their patient, status and stage. So
-- a search's rows are tested for its other words and the list's filters without fetching each one.
DROP INDEX `appointments_patient_start_idx`;--> statement-breakpoint
DROP INDEX `appointments_search_text_idx`;--> statement-breakpoint
CREATE INDEX `appointments_patient_start_idx` ON `appointments` (`patient_id`,`start_time`,`id`,`doctor_id`,`status`,`search_text`);--> statement-breakpoint
CREATE INDEX `appointments_search_text_idx` ON `appointments` (`search_text`,`doctor_id`,`start_time`,`patient_id`,`status`);--> statement-breakpoint
DROP INDEX `surgeries_doctor_date_idx`;--> statement-breakpoint
DROP INDEX `surgeries_patient_date_idx`;--> statement-breakpoint
CREATE INDEX `surgeries_doctor_date_idx` ON `surgeries` (`doctor_id`,`scheduled_date`,`id`,`patient_id`,`status`,`current_stage`);--> statement-breakpoint
CREATE INDEX `surgeries_patient_date_idx` ON `surgeries` (`patient_id`,`scheduled_date`,`id`,`doctor_id`,`status`,`current_stage`,`search_text`);