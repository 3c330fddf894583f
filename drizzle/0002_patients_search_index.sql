-- Trigram full-text index over patients.search_text: a substring search ("goncal", "247-25")
-- reads the index instead of scanning every patient. Kept in step with the table by triggers.
CREATE VIRTUAL TABLE `patients_search` USING fts5(search_text, content='patients', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
INSERT INTO `patients_search`(rowid, search_text) SELECT id, search_text FROM patients;
--> statement-breakpoint
CREATE TRIGGER `patients_search_ai` AFTER INSERT ON `patients` BEGIN
  INSERT INTO `patients_search`(rowid, search_text) VALUES (new.id, new.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER `patients_search_ad` AFTER DELETE ON `patients` BEGIN
  INSERT INTO `patients_search`(`patients_search`, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER `patients_search_au` AFTER UPDATE OF search_text ON `patients` BEGIN
  INSERT INTO `patients_search`(`patients_search`, rowid, search_text) VALUES ('delete', old.id, old.search_text);
  INSERT INTO `patients_search`(rowid, search_text) VALUES (new.id, new.search_text);
END;
