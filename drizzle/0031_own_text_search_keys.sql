-- Stored search keys of the appointments' and surgeries' own text (app/.server/search-keys.ts): the
-- models write them with each row; the server stores the missing ones at start (all of them, once,
-- after this migration). A row whose text changes by an UPDATE that does not also write its key (one
-- made by hand) loses the key, so the search folds its text on the fly until the next start.
ALTER TABLE `appointments` ADD `search_text` text;--> statement-breakpoint
ALTER TABLE `surgeries` ADD `search_text` text;--> statement-breakpoint
CREATE TRIGGER `appointments_search_text_au` AFTER UPDATE OF `type`, `location` ON `appointments`
  WHEN NEW.`search_text` IS OLD.`search_text` AND NEW.`search_text` IS NOT NULL
BEGIN
  UPDATE `appointments` SET `search_text` = NULL WHERE `id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `surgeries_search_text_au` AFTER UPDATE OF `surgery_type`, `hospital`, `payer_name`, `guide_number` ON `surgeries`
  WHEN NEW.`search_text` IS OLD.`search_text` AND NEW.`search_text` IS NOT NULL
BEGIN
  UPDATE `surgeries` SET `search_text` = NULL WHERE `id` = NEW.`id`;
END;--> statement-breakpoint
CREATE INDEX `appointments_search_text_missing_idx` ON `appointments` (`id`) WHERE "appointments"."search_text" is null;--> statement-breakpoint
CREATE INDEX `surgeries_search_text_missing_idx` ON `surgeries` (`id`) WHERE "surgeries"."search_text" is null;
