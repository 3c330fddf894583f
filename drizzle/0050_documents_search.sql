-- A search of /files finds a document when each word is in its own text (the file's name and note)
-- or in its patient's key. Tested row by row, a word few documents hold cost a pass over every
-- document (500 000: 160-350 ms). This trigram index holds both texts of each document, one column
-- each, so one query finds the documents that hold every word of three characters or more, and
-- counts them, from the index (app/models/document.server.ts). Contentless: the texts stay in
-- `documents` and `patients`; the triggers keep the index in step with both.
CREATE VIRTUAL TABLE `documents_search` USING fts5(own, patient, content='', contentless_delete=1, tokenize='trigram');
--> statement-breakpoint
INSERT INTO `documents_search`(rowid, own, patient)
  SELECT d.`id`, d.`search_text`, p.`search_text` FROM `documents` d JOIN `patients` p ON p.`id` = d.`patient_id`;
--> statement-breakpoint
CREATE TRIGGER `documents_search_ai` AFTER INSERT ON `documents` BEGIN
  INSERT INTO `documents_search`(rowid, own, patient) SELECT new.`id`, new.`search_text`, p.`search_text` FROM `patients` p WHERE p.`id` = new.`patient_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `documents_search_ad` AFTER DELETE ON `documents` BEGIN
  DELETE FROM `documents_search` WHERE rowid = old.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `documents_search_au` AFTER UPDATE OF `search_text`, `patient_id` ON `documents` BEGIN
  DELETE FROM `documents_search` WHERE rowid = old.`id`;
  INSERT INTO `documents_search`(rowid, own, patient) SELECT new.`id`, new.`search_text`, p.`search_text` FROM `patients` p WHERE p.`id` = new.`patient_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `documents_search_patient_au` AFTER UPDATE OF `search_text` ON `patients` BEGIN
  DELETE FROM `documents_search` WHERE rowid IN (SELECT `id` FROM `documents` WHERE `patient_id` = new.`id`);
  INSERT INTO `documents_search`(rowid, own, patient) SELECT d.`id`, d.`search_text`, new.`search_text` FROM `documents` d WHERE d.`patient_id` = new.`id`;
END;
--> statement-breakpoint
-- The index's vocabulary, one row per trigram (read-only, nothing stored): a word of two characters
-- is answered as the trigrams that start with it, as the patients' are (migration 0039).
CREATE VIRTUAL TABLE `documents_search_terms` USING fts5vocab('documents_search', 'row');
