CREATE TABLE `patient_consents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`patient_id` integer NOT NULL,
	`purpose` text NOT NULL,
	`granted` integer NOT NULL,
	`source` text NOT NULL,
	`recorded_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recorded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "patient_consents_purpose_check" CHECK("patient_consents"."purpose" in ('tratamento_dados', 'uso_imagem', 'pesquisa')),
	CONSTRAINT "patient_consents_source_check" CHECK("patient_consents"."source" in ('cadastro', 'formulario', 'verbal', 'paciente_whatsapp'))
);
--> statement-breakpoint
CREATE INDEX `patient_consents_patient_purpose_idx` ON `patient_consents` (`patient_id`,`purpose`,`id`);--> statement-breakpoint
-- A consent log is history: a decision is recorded by a new row, never by changing an old one.
CREATE TRIGGER IF NOT EXISTS `patient_consents_no_update` BEFORE UPDATE ON `patient_consents`
BEGIN
  SELECT RAISE(ABORT, 'patient_consents is append-only');
END;
