CREATE TABLE `stage_checklist_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`stage` text NOT NULL,
	`title` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`stage`) REFERENCES `stage_checklists`(`stage`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stage_checklist_items_stage_position_idx` ON `stage_checklist_items` (`stage`,`position`);--> statement-breakpoint
CREATE TABLE `stage_checklist_runs` (
	`surgery_id` integer NOT NULL,
	`stage` text NOT NULL,
	`task_id` integer,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`surgery_id`, `stage`),
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `stage_checklist_runs_task_idx` ON `stage_checklist_runs` (`task_id`);--> statement-breakpoint
CREATE TABLE `stage_checklists` (
	`stage` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "stage_checklists_stage_check" CHECK("stage_checklists"."stage" in ('aguarda_docs', 'enviado_pre_aut', 'aguardando_parecer', 'opme_cotacao', 'aprovado', 'negado', 'agendado', 'em_cirurgia', 'concluido', 'cancelado'))
);
