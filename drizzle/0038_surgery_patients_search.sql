-- A trigram index of only the patients who have surgeries (61 000 of 200 000 at a large practice),
-- which the surgeries' search joins in place of patients_search (app/models/word-search.server.ts):
-- 'silva' then reads its 3 000 patients with surgeries instead of all 10 000 Silvas, each sought in
-- the surgeries' patient index. It holds its own copy of each key (not an external content table:
-- its rows are a subset of patients'), kept exact by the triggers below: a patient's first surgery
-- adds them, their last one leaves, a surgery moved to another patient does both, and a patient's
-- new key replaces the old.
CREATE VIRTUAL TABLE `surgery_patients_search` USING fts5(search_text, tokenize='trigram');
--> statement-breakpoint
INSERT INTO `surgery_patients_search` (rowid, search_text)
  SELECT `id`, `search_text` FROM `patients` WHERE `id` IN (SELECT `patient_id` FROM `surgeries`);
--> statement-breakpoint
CREATE TRIGGER `surgery_patients_search_surgery_ai` AFTER INSERT ON `surgeries`
  WHEN NOT EXISTS (SELECT 1 FROM `surgery_patients_search` WHERE rowid = NEW.`patient_id`)
BEGIN
  INSERT INTO `surgery_patients_search` (rowid, search_text) SELECT `id`, `search_text` FROM `patients` WHERE `id` = NEW.`patient_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `surgery_patients_search_surgery_ad` AFTER DELETE ON `surgeries`
  WHEN NOT EXISTS (SELECT 1 FROM `surgeries` WHERE `patient_id` = OLD.`patient_id`)
BEGIN
  DELETE FROM `surgery_patients_search` WHERE rowid = OLD.`patient_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `surgery_patients_search_surgery_au` AFTER UPDATE OF `patient_id` ON `surgeries`
  WHEN NEW.`patient_id` IS NOT OLD.`patient_id`
BEGIN
  DELETE FROM `surgery_patients_search` WHERE rowid = OLD.`patient_id`
    AND NOT EXISTS (SELECT 1 FROM `surgeries` WHERE `patient_id` = OLD.`patient_id`);
  INSERT INTO `surgery_patients_search` (rowid, search_text) SELECT `id`, `search_text` FROM `patients`
    WHERE `id` = NEW.`patient_id` AND NOT EXISTS (SELECT 1 FROM `surgery_patients_search` WHERE rowid = NEW.`patient_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `surgery_patients_search_patient_au` AFTER UPDATE OF `search_text` ON `patients`
  WHEN NEW.`search_text` IS NOT OLD.`search_text`
BEGIN
  UPDATE `surgery_patients_search` SET search_text = NEW.`search_text` WHERE rowid = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `surgery_patients_search_patient_ad` AFTER DELETE ON `patients` BEGIN
  DELETE FROM `surgery_patients_search` WHERE rowid = OLD.`id`;
END;
