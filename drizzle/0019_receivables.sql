CREATE TABLE `fee_statement_imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`original_name` text NOT NULL,
	`storage_name` text,
	`mime_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`sha256` text,
	`rows_applied` integer DEFAULT 0 NOT NULL,
	`amount_cents` integer DEFAULT 0 NOT NULL,
	`uploaded_by` integer,
	`uploaded_at` integer NOT NULL,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "fee_statement_imports_kind_check" CHECK("fee_statement_imports"."kind" in ('arquivo', 'csv')),
	CONSTRAINT "fee_statement_imports_size_check" CHECK("fee_statement_imports"."size_bytes" >= 0)
);
--> statement-breakpoint
CREATE INDEX `fee_statement_imports_uploaded_idx` ON `fee_statement_imports` (`uploaded_at`);--> statement-breakpoint
CREATE TABLE `payer_tiss_settings` (
	`payer_id` integer PRIMARY KEY NOT NULL,
	`tiss_version` text NOT NULL,
	`provider_code` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`payer_id`) REFERENCES `payers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "payer_tiss_settings_version_check" CHECK("payer_tiss_settings"."tiss_version" in ('4.01.00'))
);
--> statement-breakpoint
CREATE TABLE `receivable_glosa_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`glosa_id` integer NOT NULL,
	`fee_line_id` integer,
	`description` text NOT NULL,
	`denied_cents` integer NOT NULL,
	FOREIGN KEY (`glosa_id`) REFERENCES `receivable_glosas`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`fee_line_id`) REFERENCES `surgery_fee_lines`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "receivable_glosa_lines_denied_check" CHECK("receivable_glosa_lines"."denied_cents" > 0)
);
--> statement-breakpoint
CREATE INDEX `receivable_glosa_lines_glosa_idx` ON `receivable_glosa_lines` (`glosa_id`);--> statement-breakpoint
CREATE INDEX `receivable_glosa_lines_fee_line_idx` ON `receivable_glosa_lines` (`fee_line_id`);--> statement-breakpoint
CREATE TABLE `receivable_glosas` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`surgery_id` integer NOT NULL,
	`tiss_code` text NOT NULL,
	`reason` text NOT NULL,
	`denied_cents` integer NOT NULL,
	`appeal_justification` text,
	`appeal_sent_on` text,
	`appeal_outcome` text,
	`recovered_cents` integer DEFAULT 0 NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "receivable_glosas_code_check" CHECK(length("receivable_glosas"."tiss_code") = 4 and "receivable_glosas"."tiss_code" not glob '*[^0-9]*'),
	CONSTRAINT "receivable_glosas_denied_check" CHECK("receivable_glosas"."denied_cents" > 0),
	CONSTRAINT "receivable_glosas_recovered_check" CHECK("receivable_glosas"."recovered_cents" between 0 and "receivable_glosas"."denied_cents"),
	CONSTRAINT "receivable_glosas_sent_on_check" CHECK("receivable_glosas"."appeal_sent_on" is null or (length("receivable_glosas"."appeal_sent_on") = 10 and date("receivable_glosas"."appeal_sent_on") = "receivable_glosas"."appeal_sent_on")),
	CONSTRAINT "receivable_glosas_outcome_check" CHECK("receivable_glosas"."appeal_outcome" in ('deferido', 'parcial', 'indeferido'))
);
--> statement-breakpoint
CREATE INDEX `receivable_glosas_surgery_idx` ON `receivable_glosas` (`surgery_id`);--> statement-breakpoint
CREATE TABLE `receivable_moves` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`surgery_id` integer NOT NULL,
	`kind` text NOT NULL,
	`from_status` text,
	`to_status` text,
	`amount_cents` integer,
	`reason` text,
	`moved_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`moved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "receivable_moves_kind_check" CHECK("receivable_moves"."kind" in ('concluded', 'move', 'reopen', 'remove', 'import')),
	CONSTRAINT "receivable_moves_from_check" CHECK("receivable_moves"."from_status" in ('realizado', 'faturado', 'pendente', 'glosa', 'pago')),
	CONSTRAINT "receivable_moves_to_check" CHECK("receivable_moves"."to_status" in ('realizado', 'faturado', 'pendente', 'glosa', 'pago'))
);
--> statement-breakpoint
CREATE INDEX `receivable_moves_surgery_idx` ON `receivable_moves` (`surgery_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `receivable_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`surgery_id` integer NOT NULL,
	`paid_on` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`glosa_id` integer,
	`import_id` integer,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`glosa_id`) REFERENCES `receivable_glosas`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`import_id`) REFERENCES `fee_statement_imports`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "receivable_payments_paid_on_check" CHECK("receivable_payments"."paid_on" is null or (length("receivable_payments"."paid_on") = 10 and date("receivable_payments"."paid_on") = "receivable_payments"."paid_on")),
	CONSTRAINT "receivable_payments_amount_check" CHECK("receivable_payments"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE INDEX `receivable_payments_surgery_idx` ON `receivable_payments` (`surgery_id`);--> statement-breakpoint
CREATE INDEX `receivable_payments_paid_on_idx` ON `receivable_payments` (`paid_on`);--> statement-breakpoint
CREATE INDEX `surgeries_receivable_list_idx` ON `surgeries` (`scheduled_date`) WHERE "surgeries"."receivable_status" is not null;--> statement-breakpoint
CREATE INDEX `surgeries_payer_receivable_list_idx` ON `surgeries` (`payer_id`,`scheduled_date`) WHERE "surgeries"."receivable_status" is not null;--> statement-breakpoint
CREATE INDEX `surgeries_receivable_payer_date_idx` ON `surgeries` (`receivable_status`,`payer_id`,`scheduled_date`);--> statement-breakpoint
CREATE INDEX `surgeries_receivable_paid_idx` ON `surgeries` (`receivable_status`,`paid_at`);--> statement-breakpoint
CREATE INDEX `surgeries_receivable_payer_paid_idx` ON `surgeries` (`receivable_status`,`payer_id`,`paid_at`);--> statement-breakpoint
-- Backfill (ADR 0019): every surgery already concluded (stage Concluído or status completed, its
-- date not in the future) that has no billing state becomes receivable as 'realizado', logged.
CREATE TEMP TABLE `receivable_backfill` AS
  SELECT `id` FROM `surgeries`
  WHERE `receivable_status` IS NULL
    AND (`current_stage` = 'concluido' OR `status` = 'completed')
    AND `scheduled_date` <= cast(unixepoch('subsec') * 1000 as integer);
--> statement-breakpoint
UPDATE `surgeries` SET `receivable_status` = 'realizado' WHERE `id` IN (SELECT `id` FROM `receivable_backfill`);
--> statement-breakpoint
INSERT INTO `receivable_moves` (`surgery_id`, `kind`, `from_status`, `to_status`, `reason`)
  SELECT `id`, 'concluded', NULL, 'realizado', 'Cirurgia já concluída quando os recebíveis passaram a ser controlados' FROM `receivable_backfill`;
--> statement-breakpoint
DROP TABLE `receivable_backfill`;
