CREATE TABLE `google_calendar_events` (
	`source` text NOT NULL,
	`source_id` integer NOT NULL,
	`calendar_id` text NOT NULL,
	`event_id` text NOT NULL,
	`generation` integer DEFAULT 0 NOT NULL,
	`live` integer DEFAULT false NOT NULL,
	`synced_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`source`, `source_id`),
	CONSTRAINT "google_calendar_events_source_check" CHECK("google_calendar_events"."source" in ('appointment', 'surgery'))
);
--> statement-breakpoint
CREATE TABLE `google_calendar_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source` text NOT NULL,
	`source_id` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`claimed_at` integer,
	`error` text,
	`failed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "google_calendar_outbox_source_check" CHECK("google_calendar_outbox"."source" in ('appointment', 'surgery'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `google_calendar_outbox_pending_idx` ON `google_calendar_outbox` (`source`,`source_id`) WHERE "google_calendar_outbox"."failed_at" is null;--> statement-breakpoint
CREATE INDEX `google_calendar_outbox_due_idx` ON `google_calendar_outbox` (`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `google_calendar_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`sync_mode` text DEFAULT 'off' NOT NULL,
	`clinic_calendar_id` text,
	`name_privacy` text DEFAULT 'initials' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "google_calendar_settings_single_row" CHECK("google_calendar_settings"."id" = 1),
	CONSTRAINT "google_calendar_settings_mode_check" CHECK("google_calendar_settings"."sync_mode" in ('off', 'clinic', 'doctor')),
	CONSTRAINT "google_calendar_settings_privacy_check" CHECK("google_calendar_settings"."name_privacy" in ('full', 'initials', 'none'))
);
--> statement-breakpoint
CREATE TABLE `google_doctor_calendars` (
	`doctor_id` integer PRIMARY KEY NOT NULL,
	`calendar_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`doctor_id`) REFERENCES `doctors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `google_oauth_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`session_key` text NOT NULL,
	`user_id` integer NOT NULL,
	`code_verifier` text NOT NULL,
	`return_to` text DEFAULT '/google-calendar' NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `google_oauth_states_expires_idx` ON `google_oauth_states` (`expires_at`);--> statement-breakpoint
ALTER TABLE `google_drive_files` ADD `patient_id` integer REFERENCES patients(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `google_drive_files` ADD `document_id` integer REFERENCES documents(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `google_drive_files_patient_idx` ON `google_drive_files` (`patient_id`,`mime_type`);