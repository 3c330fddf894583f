-- The pipeline's board and columns kept until the tables they read change (app/models/pipeline.server.ts),
-- as the lists are (migration 0040): besides surgeries, patients and doctors, the holidays its ANS clocks
-- count and the OPME quotes its cards show. Each write to these tables, from any connection, moves its version.
INSERT INTO `table_versions` (`table_name`, `version`) VALUES ('clinic_holidays', 0), ('opme_requests', 0), ('opme_quotes', 0);--> statement-breakpoint
CREATE TRIGGER `clinic_holidays_version_insert` AFTER INSERT ON `clinic_holidays` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'clinic_holidays';
END;--> statement-breakpoint
CREATE TRIGGER `clinic_holidays_version_update` AFTER UPDATE ON `clinic_holidays` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'clinic_holidays';
END;--> statement-breakpoint
CREATE TRIGGER `clinic_holidays_version_delete` AFTER DELETE ON `clinic_holidays` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'clinic_holidays';
END;--> statement-breakpoint
CREATE TRIGGER `opme_requests_version_insert` AFTER INSERT ON `opme_requests` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'opme_requests';
END;--> statement-breakpoint
CREATE TRIGGER `opme_requests_version_update` AFTER UPDATE ON `opme_requests` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'opme_requests';
END;--> statement-breakpoint
CREATE TRIGGER `opme_requests_version_delete` AFTER DELETE ON `opme_requests` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'opme_requests';
END;--> statement-breakpoint
CREATE TRIGGER `opme_quotes_version_insert` AFTER INSERT ON `opme_quotes` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'opme_quotes';
END;--> statement-breakpoint
CREATE TRIGGER `opme_quotes_version_update` AFTER UPDATE ON `opme_quotes` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'opme_quotes';
END;--> statement-breakpoint
CREATE TRIGGER `opme_quotes_version_delete` AFTER DELETE ON `opme_quotes` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'opme_quotes';
END;
