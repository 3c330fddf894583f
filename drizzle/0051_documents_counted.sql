-- /files at a practice's 20 years (about half a million documents), as the other big lists are: its
-- unfiltered total from a counter kept by triggers (migration 0003), so a view neither counts ten
-- thousand documents to show '10.000+' nor OFFSETs to a typed page; and its pages kept until a
-- document, a patient or a surgery is written (`pageUntilWrite`, migration 0040), the tables a page
-- reads. Viewed again, a page of documents or a search of them is not read again.
INSERT INTO `row_counts` (`table_name`, `n`) SELECT 'documents', count(*) FROM `documents`;--> statement-breakpoint
CREATE TRIGGER `documents_count_ai` AFTER INSERT ON `documents` BEGIN
  UPDATE `row_counts` SET `n` = `n` + 1 WHERE `table_name` = 'documents';
END;--> statement-breakpoint
CREATE TRIGGER `documents_count_ad` AFTER DELETE ON `documents` BEGIN
  UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'documents';
END;--> statement-breakpoint
INSERT INTO `table_versions` (`table_name`, `version`) VALUES ('documents', 0);--> statement-breakpoint
CREATE TRIGGER `documents_version_insert` AFTER INSERT ON `documents` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'documents';
END;--> statement-breakpoint
CREATE TRIGGER `documents_version_update` AFTER UPDATE ON `documents` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'documents';
END;--> statement-breakpoint
CREATE TRIGGER `documents_version_delete` AFTER DELETE ON `documents` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'documents';
END;
