CREATE TABLE `documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`patient_id` integer NOT NULL,
	`surgery_id` integer,
	`category` text NOT NULL,
	`note` text,
	`original_name` text NOT NULL,
	`mime_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`storage_name` text NOT NULL,
	`uploaded_by` integer,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "documents_category_check" CHECK("documents"."category" in ('exame', 'laudo', 'termo_consentimento', 'guia', 'outros')),
	CONSTRAINT "documents_size_check" CHECK("documents"."size_bytes" >= 0),
	CONSTRAINT "documents_sha256_check" CHECK(length("documents"."sha256") = 64)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `documents_storage_name_unique` ON `documents` (`storage_name`);--> statement-breakpoint
CREATE INDEX `documents_created_idx` ON `documents` (`created_at`);--> statement-breakpoint
CREATE INDEX `documents_patient_created_idx` ON `documents` (`patient_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `documents_category_created_idx` ON `documents` (`category`,`created_at`);--> statement-breakpoint
CREATE INDEX `documents_surgery_idx` ON `documents` (`surgery_id`);--> statement-breakpoint
ALTER TABLE `clinic_settings` ADD `upload_max_mb` integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE `patients` ADD `insurance_card_number` text;--> statement-breakpoint
CREATE INDEX `tasks_patient_created_idx` ON `tasks` (`patient_id`,`created_at`);