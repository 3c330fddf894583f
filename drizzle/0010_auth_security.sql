CREATE TABLE `login_throttle` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_failure_at` integer NOT NULL,
	`locked_until` integer
);
--> statement-breakpoint
CREATE INDEX `login_throttle_last_failure_idx` ON `login_throttle` (`last_failure_at`);--> statement-breakpoint
CREATE TABLE `mfa_factors` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`secret_encrypted` text NOT NULL,
	`verified_at` integer,
	`last_time_step` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `mfa_recovery_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mfa_recovery_codes_user_idx` ON `mfa_recovery_codes` (`user_id`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `stage` text;--> statement-breakpoint
ALTER TABLE `users` ADD `must_change_password` integer DEFAULT false NOT NULL;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_clinic_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`clinic_name` text DEFAULT 'Minha Clínica' NOT NULL,
	`time_zone` text DEFAULT 'America/Sao_Paulo' NOT NULL,
	`password_min_length` integer DEFAULT 8 NOT NULL,
	`upload_max_mb` integer DEFAULT 20 NOT NULL,
	`session_idle_minutes` integer DEFAULT 30 NOT NULL,
	`session_max_hours` integer DEFAULT 12 NOT NULL,
	`login_max_failures` integer DEFAULT 5 NOT NULL,
	`mfa_required_for_admins` integer DEFAULT false NOT NULL,
	`cookie_secret` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "clinic_settings_single_row" CHECK("__new_clinic_settings"."id" = 1),
	CONSTRAINT "clinic_settings_password_min" CHECK("__new_clinic_settings"."password_min_length" between 8 and 128),
	CONSTRAINT "clinic_settings_session_idle" CHECK("__new_clinic_settings"."session_idle_minutes" between 5 and 480),
	CONSTRAINT "clinic_settings_session_max" CHECK("__new_clinic_settings"."session_max_hours" between 1 and 24),
	CONSTRAINT "clinic_settings_login_failures" CHECK("__new_clinic_settings"."login_max_failures" between 3 and 10)
);
--> statement-breakpoint
INSERT INTO `__new_clinic_settings`("id", "clinic_name", "time_zone", "password_min_length", "upload_max_mb", "cookie_secret", "created_at", "updated_at") SELECT "id", "clinic_name", "time_zone", "password_min_length", "upload_max_mb", "cookie_secret", "created_at", "updated_at" FROM `clinic_settings`;--> statement-breakpoint
DROP TABLE `clinic_settings`;--> statement-breakpoint
ALTER TABLE `__new_clinic_settings` RENAME TO `clinic_settings`;--> statement-breakpoint
PRAGMA foreign_keys=ON;