CREATE TABLE `whatsapp_consents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`patient_id` integer NOT NULL,
	`opted_in` integer NOT NULL,
	`source` text NOT NULL,
	`recorded_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recorded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "whatsapp_consents_source_check" CHECK("whatsapp_consents"."source" in ('cadastro', 'paciente_whatsapp', 'formulario', 'verbal'))
);
--> statement-breakpoint
CREATE INDEX `whatsapp_consents_patient_created_idx` ON `whatsapp_consents` (`patient_id`,`created_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_automation_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`template_id` integer NOT NULL,
	`trigger` text NOT NULL,
	`offset_minutes` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`template_id`) REFERENCES `message_templates`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "automation_rules_trigger_check" CHECK("__new_automation_rules"."trigger" in ('appointment_created', 'appointment_start', 'appointment_completed', 'surgery_scheduled', 'surgery_date', 'surgery_completed', 'patient_created', 'patient_birthday')),
	CONSTRAINT "automation_rules_name_check" CHECK(length(trim("__new_automation_rules"."name")) > 0)
);
--> statement-breakpoint
INSERT INTO `__new_automation_rules`("id", "name", "template_id", "trigger", "offset_minutes", "enabled", "created_at", "updated_at") SELECT "id", "name", "template_id", "trigger", "offset_minutes", "enabled", "created_at", "updated_at" FROM `automation_rules`;--> statement-breakpoint
DROP TABLE `automation_rules`;--> statement-breakpoint
ALTER TABLE `__new_automation_rules` RENAME TO `automation_rules`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `automation_rules_enabled_trigger_idx` ON `automation_rules` (`enabled`,`trigger`);--> statement-breakpoint
CREATE INDEX `automation_rules_template_idx` ON `automation_rules` (`template_id`);--> statement-breakpoint
CREATE TABLE `__new_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`patient_id` integer,
	`template_id` integer,
	`patient_name` text NOT NULL,
	`template_title` text,
	`body` text NOT NULL,
	`to_phone` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`error` text,
	`external_id` text,
	`sent_by` integer,
	`direction` text DEFAULT 'outbound' NOT NULL,
	`kind` text DEFAULT 'template' NOT NULL,
	`template_name` text,
	`template_language` text,
	`params` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`sending_at` integer,
	`status_at` integer,
	`rule_id` integer,
	`event_key` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`template_id`) REFERENCES `message_templates`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`sent_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`rule_id`) REFERENCES `automation_rules`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "messages_status_check" CHECK("__new_messages"."status" in ('queued', 'sent', 'delivered', 'read', 'failed')),
	CONSTRAINT "messages_direction_check" CHECK("__new_messages"."direction" in ('outbound', 'inbound')),
	CONSTRAINT "messages_kind_check" CHECK("__new_messages"."kind" in ('template', 'text'))
);
--> statement-breakpoint
INSERT INTO `__new_messages`("id", "patient_id", "template_id", "patient_name", "template_title", "body", "to_phone", "status", "error", "external_id", "sent_by", "created_at", "updated_at") SELECT "id", "patient_id", "template_id", "patient_name", "template_title", "body", "to_phone", "status", "error", "external_id", "sent_by", "created_at", "updated_at" FROM `messages`;--> statement-breakpoint
DROP TABLE `messages`;--> statement-breakpoint
ALTER TABLE `__new_messages` RENAME TO `messages`;--> statement-breakpoint
CREATE INDEX `messages_created_at_idx` ON `messages` (`created_at`);--> statement-breakpoint
CREATE INDEX `messages_patient_created_idx` ON `messages` (`patient_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_status_created_idx` ON `messages` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_template_created_idx` ON `messages` (`template_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_external_id_idx` ON `messages` (`external_id`);--> statement-breakpoint
CREATE INDEX `messages_patient_direction_created_idx` ON `messages` (`patient_id`,`direction`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_queue_idx` ON `messages` (`status`,`next_attempt_at`) WHERE status = 'queued' and direction = 'outbound' and sending_at is null;--> statement-breakpoint
CREATE INDEX `messages_in_flight_idx` ON `messages` (`sending_at`) WHERE sending_at is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `messages_rule_event_unique` ON `messages` (`rule_id`,`event_key`);--> statement-breakpoint
ALTER TABLE `message_templates` ADD `meta_name` text;--> statement-breakpoint
ALTER TABLE `message_templates` ADD `meta_language` text DEFAULT 'pt_BR' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `message_templates_meta_unique` ON `message_templates` (`meta_name`,`meta_language`);