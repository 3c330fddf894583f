ALTER TABLE `pipeline_stage_totals` ADD `billed_cards` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Billed surgeries per board column, for the dashboard's billing rate (kept like `cards`).
UPDATE `pipeline_stage_totals` SET `billed_cards` = (
  SELECT count(*) FROM `surgeries`
   WHERE `current_stage` = `pipeline_stage_totals`.`stage`
     AND (`receivable_status` IN ('faturado', 'glosa', 'pago') OR `billed_at` IS NOT NULL));
--> statement-breakpoint
DROP TRIGGER `surgeries_stage_totals_ai`;
--> statement-breakpoint
DROP TRIGGER `surgeries_stage_totals_ad`;
--> statement-breakpoint
DROP TRIGGER `surgeries_stage_totals_au`;
--> statement-breakpoint
CREATE TRIGGER `surgeries_stage_totals_ai` AFTER INSERT ON `surgeries` BEGIN
  UPDATE `pipeline_stage_totals`
     SET `cards` = `cards` + 1,
         `billed_cents` = `billed_cents` + coalesce(NEW.`billed_amount_cents`, 0),
         `billed_cards` = `billed_cards` + (CASE WHEN NEW.`receivable_status` IN ('faturado', 'glosa', 'pago') OR NEW.`billed_at` IS NOT NULL THEN 1 ELSE 0 END)
   WHERE `stage` = NEW.`current_stage`;
END;
--> statement-breakpoint
CREATE TRIGGER `surgeries_stage_totals_ad` AFTER DELETE ON `surgeries` BEGIN
  UPDATE `pipeline_stage_totals`
     SET `cards` = `cards` - 1,
         `billed_cents` = `billed_cents` - coalesce(OLD.`billed_amount_cents`, 0),
         `billed_cards` = `billed_cards` - (CASE WHEN OLD.`receivable_status` IN ('faturado', 'glosa', 'pago') OR OLD.`billed_at` IS NOT NULL THEN 1 ELSE 0 END)
   WHERE `stage` = OLD.`current_stage`;
END;
--> statement-breakpoint
CREATE TRIGGER `surgeries_stage_totals_au` AFTER UPDATE OF `current_stage`, `billed_amount_cents`, `receivable_status`, `billed_at` ON `surgeries` BEGIN
  UPDATE `pipeline_stage_totals`
     SET `cards` = `cards` - 1,
         `billed_cents` = `billed_cents` - coalesce(OLD.`billed_amount_cents`, 0),
         `billed_cards` = `billed_cards` - (CASE WHEN OLD.`receivable_status` IN ('faturado', 'glosa', 'pago') OR OLD.`billed_at` IS NOT NULL THEN 1 ELSE 0 END)
   WHERE `stage` = OLD.`current_stage`;
  UPDATE `pipeline_stage_totals`
     SET `cards` = `cards` + 1,
         `billed_cents` = `billed_cents` + coalesce(NEW.`billed_amount_cents`, 0),
         `billed_cards` = `billed_cards` + (CASE WHEN NEW.`receivable_status` IN ('faturado', 'glosa', 'pago') OR NEW.`billed_at` IS NOT NULL THEN 1 ELSE 0 END)
   WHERE `stage` = NEW.`current_stage`;
END;
