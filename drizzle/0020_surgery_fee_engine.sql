CREATE TABLE `surgery_fee_settings` (
	`surgery_id` integer PRIMARY KEY NOT NULL,
	`accommodation` text DEFAULT 'enfermaria' NOT NULL,
	`urgency` text DEFAULT 'auto' NOT NULL,
	`computed_at` integer,
	`computed_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`computed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "surgery_fee_settings_accommodation_check" CHECK("surgery_fee_settings"."accommodation" in ('enfermaria', 'apartamento')),
	CONSTRAINT "surgery_fee_settings_urgency_check" CHECK("surgery_fee_settings"."urgency" in ('auto', 'sim', 'nao')),
	CONSTRAINT "surgery_fee_settings_computed_check" CHECK("surgery_fee_settings"."computed_by" is null or "surgery_fee_settings"."computed_at" is not null)
);
--> statement-breakpoint
CREATE TABLE `surgery_procedures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`surgery_id` integer NOT NULL,
	`medical_code_id` integer NOT NULL,
	`position` integer NOT NULL,
	`access_route` text DEFAULT 'same' NOT NULL,
	`bilateral` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`medical_code_id`) REFERENCES `medical_codes`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "surgery_procedures_access_route_check" CHECK("surgery_procedures"."access_route" in ('same', 'different'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `surgery_procedures_surgery_position_unique` ON `surgery_procedures` (`surgery_id`,`position`);--> statement-breakpoint
CREATE INDEX `surgery_procedures_code_surgery_idx` ON `surgery_procedures` (`medical_code_id`,`surgery_id`);--> statement-breakpoint
CREATE TABLE `surgery_team_members` (
	`surgery_id` integer NOT NULL,
	`role` text NOT NULL,
	`doctor_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`surgery_id`, `role`),
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`doctor_id`) REFERENCES `doctors`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "surgery_team_members_role_check" CHECK("surgery_team_members"."role" in ('cirurgiao', 'auxiliar_1', 'auxiliar_2', 'auxiliar_3', 'auxiliar_4', 'anestesista'))
);
--> statement-breakpoint
CREATE INDEX `surgery_team_members_doctor_idx` ON `surgery_team_members` (`doctor_id`);--> statement-breakpoint
-- surgery_fee_lines gains its columns in place (ALTER TABLE … ADD, as migration 0011 did): a
-- rebuild would copy columns the old table lacks and run the cascades of its foreign keys.
ALTER TABLE `surgery_fee_lines` ADD `service_date` integer;--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `position` integer CHECK (`position` is null or `position` between 1 and 4);--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `porte` text;--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `anesthetic_porte` integer;--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `porte_value_cents` integer;--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `procedure_percent` integer;--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `share_percent` integer;--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `accommodation_factor` integer;--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `urgency_percent` integer;--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `contralateral` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `computed_cents` integer;--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `override_reason` text;--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `overridden_by` integer REFERENCES `users`(`id`) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `surgery_fee_lines` ADD `overridden_at` integer;--> statement-breakpoint
DROP INDEX IF EXISTS `surgery_fee_lines_code_idx`;--> statement-breakpoint
UPDATE `surgery_fee_lines` SET `service_date` = (SELECT `scheduled_date` FROM `surgeries` WHERE `surgeries`.`id` = `surgery_fee_lines`.`surgery_id`);--> statement-breakpoint
-- service_date follows the surgery's date: set on insert when the writer left it out, and on every reschedule.
CREATE TRIGGER `surgery_fee_lines_service_date_ai` AFTER INSERT ON `surgery_fee_lines` WHEN new.`service_date` IS NULL BEGIN
  UPDATE `surgery_fee_lines` SET `service_date` = (SELECT `scheduled_date` FROM `surgeries` WHERE `id` = new.`surgery_id`) WHERE `id` = new.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `surgeries_fee_lines_service_date_au` AFTER UPDATE OF `scheduled_date` ON `surgeries` BEGIN
  UPDATE `surgery_fee_lines` SET `service_date` = new.`scheduled_date` WHERE `surgery_id` = new.`id`;
END;--> statement-breakpoint
CREATE INDEX `surgery_fee_lines_doctor_date_idx` ON `surgery_fee_lines` (`doctor_id`,`service_date`,`role`,`surgery_id`,`amount_cents`);--> statement-breakpoint
CREATE INDEX `surgery_fee_lines_code_role_idx` ON `surgery_fee_lines` (`medical_code_id`,`role`,`surgery_id`);--> statement-breakpoint
CREATE INDEX `surgeries_payer_date_billing_idx` ON `surgeries` (`payer_id`,`scheduled_date`,`receivable_status`,`billed_amount_cents`,`billed_at`,`paid_at`);