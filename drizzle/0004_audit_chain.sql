CREATE TABLE `backup_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`daily_enabled` integer DEFAULT false NOT NULL,
	`daily_hour` integer DEFAULT 2 NOT NULL,
	`retention` integer DEFAULT 14 NOT NULL,
	`last_run_at` integer,
	`last_file` text,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "backup_settings_single_row" CHECK("backup_settings"."id" = 1),
	CONSTRAINT "backup_settings_hour" CHECK("backup_settings"."daily_hour" between 0 and 23),
	CONSTRAINT "backup_settings_retention" CHECK("backup_settings"."retention" between 1 and 365)
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`action` text NOT NULL,
	`entity` text NOT NULL,
	`entity_id` text,
	`changes` text,
	`ip` text,
	`created_at` integer NOT NULL,
	`prev_hash` text,
	`hash` text
);
--> statement-breakpoint
INSERT INTO `__new_audit_log`("id", "user_id", "action", "entity", "entity_id", "changes", "created_at") SELECT "id", "user_id", "action", "entity", "entity_id", "changes", "created_at" FROM `audit_log`;--> statement-breakpoint
DROP TABLE `audit_log`;--> statement-breakpoint
ALTER TABLE `__new_audit_log` RENAME TO `audit_log`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `audit_log_entity_idx` ON `audit_log` (`entity`,`entity_id`);--> statement-breakpoint
CREATE INDEX `audit_log_entity_only_idx` ON `audit_log` (`entity`);--> statement-breakpoint
CREATE INDEX `audit_log_action_idx` ON `audit_log` (`action`);--> statement-breakpoint
CREATE INDEX `audit_log_created_idx` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_user_idx` ON `audit_log` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `audit_log_prev_hash_unique` ON `audit_log` (`prev_hash`);--> statement-breakpoint
INSERT OR IGNORE INTO `backup_settings` (`id`) VALUES (1);
--> statement-breakpoint
-- The trail of personal data keeps which fields changed, never their values (ADR 0011): entries
-- written before this rule lose their copies of patients', appointments' and surgeries' values
-- before the chain seals them, so deleting or anonymising a patient is not undone by the trail.
UPDATE `audit_log`
SET `changes` = CASE
  WHEN json_valid(`changes`) AND json_type(`changes`) = 'object'
    THEN json_object('fields', (SELECT json_group_array(`key`) FROM json_each(`audit_log`.`changes`)))
  ELSE NULL
END
WHERE `entity` IN ('patient', 'appointment', 'surgery') AND `changes` IS NOT NULL;
--> statement-breakpoint
-- Append-only: no entry is ever changed or removed. The one UPDATE allowed is the one-time seal of
-- an entry written before the chain existed (hash still null), and it may set nothing but the hash.
CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log`
WHEN OLD.`hash` IS NOT NULL OR NEW.`id` IS NOT OLD.`id` OR NEW.`user_id` IS NOT OLD.`user_id`
  OR NEW.`action` IS NOT OLD.`action` OR NEW.`entity` IS NOT OLD.`entity` OR NEW.`entity_id` IS NOT OLD.`entity_id`
  OR NEW.`changes` IS NOT OLD.`changes` OR NEW.`ip` IS NOT OLD.`ip` OR NEW.`created_at` IS NOT OLD.`created_at`
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_no_delete` BEFORE DELETE ON `audit_log`
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
--> statement-breakpoint
-- A new entry must carry its hash and link to the last entry's (so a writer cannot fork the chain).
CREATE TRIGGER `audit_log_chained_insert` BEFORE INSERT ON `audit_log`
WHEN NEW.`hash` IS NULL OR length(NEW.`hash`) <> 64
  OR NEW.`prev_hash` IS NOT coalesce((SELECT `hash` FROM `audit_log` ORDER BY `id` DESC LIMIT 1), '0000000000000000000000000000000000000000000000000000000000000000')
BEGIN
  SELECT RAISE(ABORT, 'audit_log entries must extend the chain');
END;
