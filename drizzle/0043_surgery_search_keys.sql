-- A surgeries search by a word of a hospital's, payer's or type's name ('santa', 'unimed') tests
-- each distinct key without the guide number once, as the appointments' does (migration 0032), and
-- finds the rows whose guide holds a word in a trigram index of the guides alone
-- (docs/decisions/0008). The key is stored next to the whole one; the migration empties both, and
-- the next start stores them again (app/.server/search-keys.ts: fillSearchKeys).
CREATE TABLE `surgery_search_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
DROP INDEX `surgeries_search_text_missing_idx`;--> statement-breakpoint
DROP INDEX `surgeries_patient_date_idx`;--> statement-breakpoint
ALTER TABLE `surgeries` ADD `search_class` text;--> statement-breakpoint
-- The whole key's trigram index gives way to the guides': a word in a hospital's name was in most
-- rows' keys, read through it one by one.
DROP TRIGGER `surgeries_search_ai`;--> statement-breakpoint
DROP TRIGGER `surgeries_search_ad`;--> statement-breakpoint
DROP TRIGGER `surgeries_search_au`;--> statement-breakpoint
DROP TABLE `surgeries_search`;--> statement-breakpoint
UPDATE `surgeries` SET `search_text` = NULL;--> statement-breakpoint
-- A row whose text an UPDATE changes without writing its keys (one made by hand) loses them, as in
-- migration 0031; but only when the text did change: the models write every column of a row they
-- edit, its keys too, so an edit that kept its text emptied them until the next start.
DROP TRIGGER `surgeries_search_text_au`;--> statement-breakpoint
CREATE TRIGGER `surgeries_keys_stale_au` AFTER UPDATE OF `surgery_type`, `hospital`, `payer_name`, `guide_number` ON `surgeries`
  WHEN (NEW.`surgery_type` IS NOT OLD.`surgery_type` OR NEW.`hospital` IS NOT OLD.`hospital`
    OR NEW.`payer_name` IS NOT OLD.`payer_name` OR NEW.`guide_number` IS NOT OLD.`guide_number`)
    AND NEW.`search_class` IS OLD.`search_class` AND NEW.`search_text` IS OLD.`search_text` AND NEW.`search_class` IS NOT NULL
BEGIN
  UPDATE `surgeries` SET `search_class` = NULL, `search_text` = NULL WHERE `id` = NEW.`id`;
END;--> statement-breakpoint
DROP TRIGGER `appointments_search_text_au`;--> statement-breakpoint
CREATE TRIGGER `appointments_search_text_au` AFTER UPDATE OF `type`, `location` ON `appointments`
  WHEN (NEW.`type` IS NOT OLD.`type` OR NEW.`location` IS NOT OLD.`location`)
    AND NEW.`search_text` IS OLD.`search_text` AND NEW.`search_text` IS NOT NULL
BEGIN
  UPDATE `appointments` SET `search_text` = NULL WHERE `id` = NEW.`id`;
END;--> statement-breakpoint
CREATE INDEX `surgeries_search_class_idx` ON `surgeries` (`search_class`,`doctor_id`,`scheduled_date`,`patient_id`,`status`,`current_stage`,`receivable_status`,`payer_id`);--> statement-breakpoint
CREATE INDEX `surgeries_search_keys_missing_idx` ON `surgeries` (`id`) WHERE "surgeries"."search_class" is null;--> statement-breakpoint
CREATE INDEX `surgeries_patient_date_idx` ON `surgeries` (`patient_id`,`scheduled_date`,`id`,`doctor_id`,`status`,`current_stage`,`search_class`,`receivable_status`,`payer_id`);--> statement-breakpoint
-- The guides' folded text (the whole key after `search_class` and ' | '), with a space after it so a
-- word of two characters at its end has a trigram ('12 '), as the patients' keys do; only rows with
-- both keys. Contentless: the triggers give the text, and give it again to take a row out.
CREATE VIRTUAL TABLE `surgery_guides_search` USING fts5(guide, content='', tokenize='trigram');
--> statement-breakpoint
-- Its trigrams, for a word of two characters: every trigram that starts with it (as patients_search_terms).
CREATE VIRTUAL TABLE `surgery_guides_search_terms` USING fts5vocab('surgery_guides_search', 'row');
--> statement-breakpoint
CREATE TRIGGER `surgery_search_keys_ai` AFTER INSERT ON `surgeries` WHEN NEW.`search_class` IS NOT NULL BEGIN
  INSERT INTO `surgery_search_keys` (`key`, `n`) VALUES (NEW.`search_class`, 1)
    ON CONFLICT (`key`) DO UPDATE SET `n` = `n` + 1;
  INSERT INTO `surgery_guides_search` (rowid, guide)
    SELECT NEW.`id`, substr(NEW.`search_text`, length(NEW.`search_class`) + 4) || ' ' WHERE NEW.`search_text` IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `surgery_search_keys_ad` AFTER DELETE ON `surgeries` WHEN OLD.`search_class` IS NOT NULL BEGIN
  UPDATE `surgery_search_keys` SET `n` = `n` - 1 WHERE `key` = OLD.`search_class`;
  DELETE FROM `surgery_search_keys` WHERE `key` = OLD.`search_class` AND `n` <= 0;
  INSERT INTO `surgery_guides_search` (`surgery_guides_search`, rowid, guide)
    SELECT 'delete', OLD.`id`, substr(OLD.`search_text`, length(OLD.`search_class`) + 4) || ' ' WHERE OLD.`search_text` IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `surgery_search_keys_au` AFTER UPDATE OF `search_class`, `search_text` ON `surgeries`
  WHEN NEW.`search_class` IS NOT OLD.`search_class` OR NEW.`search_text` IS NOT OLD.`search_text`
BEGIN
  UPDATE `surgery_search_keys` SET `n` = `n` - 1 WHERE `key` = OLD.`search_class`;
  DELETE FROM `surgery_search_keys` WHERE `key` = OLD.`search_class` AND `n` <= 0;
  INSERT INTO `surgery_search_keys` (`key`, `n`) SELECT NEW.`search_class`, 1 WHERE NEW.`search_class` IS NOT NULL
    ON CONFLICT (`key`) DO UPDATE SET `n` = `n` + 1;
  INSERT INTO `surgery_guides_search` (`surgery_guides_search`, rowid, guide)
    SELECT 'delete', OLD.`id`, substr(OLD.`search_text`, length(OLD.`search_class`) + 4) || ' '
    WHERE OLD.`search_class` IS NOT NULL AND OLD.`search_text` IS NOT NULL;
  INSERT INTO `surgery_guides_search` (rowid, guide)
    SELECT NEW.`id`, substr(NEW.`search_text`, length(NEW.`search_class`) + 4) || ' '
    WHERE NEW.`search_class` IS NOT NULL AND NEW.`search_text` IS NOT NULL;
END;
