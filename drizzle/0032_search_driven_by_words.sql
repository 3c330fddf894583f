-- Searches of appointments and surgeries driven by their words' own matches
-- (app/.server/word-search.ts, docs/decisions/0008): each word's rows are found through indexes
-- instead of testing every row.
CREATE INDEX `appointments_search_text_idx` ON `appointments` (`search_text`,`start_time`);
--> statement-breakpoint
-- Its first range holds the rows without a key, which had an index of their own.
DROP INDEX `appointments_search_text_missing_idx`;
--> statement-breakpoint
-- Appointments' own text repeats (types and locations): its distinct keys, with how many
-- appointments have each, kept by the triggers below in the same transaction as every write.
CREATE TABLE `appointment_search_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `appointment_search_keys` (`key`, `n`)
  SELECT `search_text`, count(*) FROM `appointments` WHERE `search_text` IS NOT NULL GROUP BY `search_text`;
--> statement-breakpoint
CREATE TRIGGER `appointment_search_keys_ai` AFTER INSERT ON `appointments` WHEN NEW.`search_text` IS NOT NULL BEGIN
  INSERT INTO `appointment_search_keys` (`key`, `n`) VALUES (NEW.`search_text`, 1)
    ON CONFLICT (`key`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `appointment_search_keys_ad` AFTER DELETE ON `appointments` WHEN OLD.`search_text` IS NOT NULL BEGIN
  UPDATE `appointment_search_keys` SET `n` = `n` - 1 WHERE `key` = OLD.`search_text`;
  DELETE FROM `appointment_search_keys` WHERE `key` = OLD.`search_text` AND `n` <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `appointment_search_keys_au` AFTER UPDATE OF `search_text` ON `appointments`
  WHEN NEW.`search_text` IS NOT OLD.`search_text`
BEGIN
  UPDATE `appointment_search_keys` SET `n` = `n` - 1 WHERE `key` = OLD.`search_text`;
  DELETE FROM `appointment_search_keys` WHERE `key` = OLD.`search_text` AND `n` <= 0;
  INSERT INTO `appointment_search_keys` (`key`, `n`) SELECT NEW.`search_text`, 1 WHERE NEW.`search_text` IS NOT NULL
    ON CONFLICT (`key`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- Surgeries' own text holds the guide number, unique to each: a trigram index over the key, as
-- patients have (migration 0002), kept in step by triggers. Every row is in it, a row without a key
-- as an empty document: FTS5 keeps one entry per row of its content table.
CREATE VIRTUAL TABLE `surgeries_search` USING fts5(search_text, content='surgeries', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
INSERT INTO `surgeries_search` (rowid, search_text) SELECT `id`, `search_text` FROM `surgeries`;
--> statement-breakpoint
CREATE TRIGGER `surgeries_search_ai` AFTER INSERT ON `surgeries` BEGIN
  INSERT INTO `surgeries_search` (rowid, search_text) VALUES (NEW.`id`, NEW.`search_text`);
END;
--> statement-breakpoint
CREATE TRIGGER `surgeries_search_ad` AFTER DELETE ON `surgeries` BEGIN
  INSERT INTO `surgeries_search` (`surgeries_search`, rowid, search_text) VALUES ('delete', OLD.`id`, OLD.`search_text`);
END;
--> statement-breakpoint
CREATE TRIGGER `surgeries_search_au` AFTER UPDATE OF `search_text` ON `surgeries`
  WHEN NEW.`search_text` IS NOT OLD.`search_text`
BEGIN
  INSERT INTO `surgeries_search` (`surgeries_search`, rowid, search_text) VALUES ('delete', OLD.`id`, OLD.`search_text`);
  INSERT INTO `surgeries_search` (rowid, search_text) VALUES (NEW.`id`, NEW.`search_text`);
END;
