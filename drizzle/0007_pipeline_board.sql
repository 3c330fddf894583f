CREATE TABLE `clinic_holidays` (
	`day` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "clinic_holidays_day_check" CHECK("clinic_holidays"."day" is null or (length("clinic_holidays"."day") = 10 and date("clinic_holidays"."day") = "clinic_holidays"."day"))
);
--> statement-breakpoint
CREATE TABLE `pipeline_stage_totals` (
	`stage` text PRIMARY KEY NOT NULL,
	`cards` integer DEFAULT 0 NOT NULL,
	`billed_cents` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX `surgeries_payer_idx`;--> statement-breakpoint
DROP INDEX `surgeries_hospital_idx`;--> statement-breakpoint
ALTER TABLE `surgeries` ADD `stage_changed_at` integer;--> statement-breakpoint
ALTER TABLE `surgeries` ADD `ans_requested_at` integer;--> statement-breakpoint
ALTER TABLE `surgeries` ADD `ans_due_on` text;--> statement-breakpoint
ALTER TABLE `surgeries` ADD `denial_reason` text;--> statement-breakpoint
ALTER TABLE `surgeries` ADD `denial_appeal` integer;--> statement-breakpoint
CREATE INDEX `surgeries_doctor_stage_date_idx` ON `surgeries` (`doctor_id`,`current_stage`,`scheduled_date`,`id`,`billed_amount_cents`);--> statement-breakpoint
CREATE INDEX `surgeries_payer_stage_date_idx` ON `surgeries` (`payer_id`,`current_stage`,`scheduled_date`,`id`,`billed_amount_cents`);--> statement-breakpoint
CREATE INDEX `surgeries_hospital_stage_date_idx` ON `surgeries` (`hospital_id`,`current_stage`,`scheduled_date`,`id`,`billed_amount_cents`);--> statement-breakpoint
CREATE INDEX `surgeries_ans_due_idx` ON `surgeries` (`ans_due_on`,`current_stage`,`billed_amount_cents`) WHERE "surgeries"."ans_due_on" is not null;--> statement-breakpoint
ALTER TABLE `pipeline_stages` ADD `note` text;--> statement-breakpoint
-- When a card entered its current stage: the time of its last move, kept by the log's own insert.
UPDATE `surgeries` SET `stage_changed_at` = coalesce(
  (SELECT max(p.`created_at`) FROM `pipeline_stages` p WHERE p.`surgery_id` = `surgeries`.`id`),
  `updated_at`);
--> statement-breakpoint
CREATE TRIGGER `pipeline_stages_stage_changed_ai` AFTER INSERT ON `pipeline_stages` BEGIN
  UPDATE `surgeries` SET `stage_changed_at` = NEW.`created_at` WHERE `id` = NEW.`surgery_id`;
END;
--> statement-breakpoint
-- Cards and billed total per board column (docs/decisions/0015-pipeline-board.md).
INSERT INTO `pipeline_stage_totals` (`stage`, `cards`, `billed_cents`)
  SELECT s.`stage`,
    (SELECT count(*) FROM `surgeries` WHERE `current_stage` = s.`stage`),
    (SELECT coalesce(sum(`billed_amount_cents`), 0) FROM `surgeries` WHERE `current_stage` = s.`stage`)
  FROM (SELECT 'aguarda_docs' AS `stage` UNION ALL SELECT 'enviado_pre_aut' UNION ALL SELECT 'aguardando_parecer'
        UNION ALL SELECT 'opme_cotacao' UNION ALL SELECT 'aprovado' UNION ALL SELECT 'negado' UNION ALL SELECT 'agendado'
        UNION ALL SELECT 'em_cirurgia' UNION ALL SELECT 'concluido' UNION ALL SELECT 'cancelado') s;
--> statement-breakpoint
CREATE TRIGGER `surgeries_stage_totals_ai` AFTER INSERT ON `surgeries` BEGIN
  UPDATE `pipeline_stage_totals` SET `cards` = `cards` + 1, `billed_cents` = `billed_cents` + coalesce(NEW.`billed_amount_cents`, 0)
    WHERE `stage` = NEW.`current_stage`;
END;
--> statement-breakpoint
CREATE TRIGGER `surgeries_stage_totals_ad` AFTER DELETE ON `surgeries` BEGIN
  UPDATE `pipeline_stage_totals` SET `cards` = `cards` - 1, `billed_cents` = `billed_cents` - coalesce(OLD.`billed_amount_cents`, 0)
    WHERE `stage` = OLD.`current_stage`;
END;
--> statement-breakpoint
CREATE TRIGGER `surgeries_stage_totals_au` AFTER UPDATE OF `current_stage`, `billed_amount_cents` ON `surgeries` BEGIN
  UPDATE `pipeline_stage_totals` SET `cards` = `cards` - 1, `billed_cents` = `billed_cents` - coalesce(OLD.`billed_amount_cents`, 0)
    WHERE `stage` = OLD.`current_stage`;
  UPDATE `pipeline_stage_totals` SET `cards` = `cards` + 1, `billed_cents` = `billed_cents` + coalesce(NEW.`billed_amount_cents`, 0)
    WHERE `stage` = NEW.`current_stage`;
END;
