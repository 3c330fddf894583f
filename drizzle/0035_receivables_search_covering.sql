-- Cirurgias a receber searched as the surgeries list is (app/models/word-search.server.ts): a
-- search's rows are tested for the receivables' filters (status, payer) in the patient and doctor
-- indexes alone, as the surgeries' own filters already were. Read from the table, 'silva' with the
-- list's 'every receivable' filter took 60 ms to read out.
DROP INDEX `surgeries_doctor_date_idx`;--> statement-breakpoint
DROP INDEX `surgeries_patient_date_idx`;--> statement-breakpoint
CREATE INDEX `surgeries_doctor_date_idx` ON `surgeries` (`doctor_id`,`scheduled_date`,`id`,`patient_id`,`status`,`current_stage`,`receivable_status`,`payer_id`);--> statement-breakpoint
CREATE INDEX `surgeries_patient_date_idx` ON `surgeries` (`patient_id`,`scheduled_date`,`id`,`doctor_id`,`status`,`current_stage`,`search_text`,`receivable_status`,`payer_id`);