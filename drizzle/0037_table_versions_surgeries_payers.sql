-- The payer summary (/honorarios/pagador) kept until the surgeries or the payers change, as the fee
-- report is over its tables (migration 0036): each write to these tables, from any connection, moves its version.
INSERT INTO `table_versions` (`table_name`, `version`) VALUES ('surgeries', 0), ('payers', 0);--> statement-breakpoint
CREATE TRIGGER `surgeries_version_insert` AFTER INSERT ON `surgeries` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'surgeries';
END;--> statement-breakpoint
CREATE TRIGGER `surgeries_version_update` AFTER UPDATE ON `surgeries` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'surgeries';
END;--> statement-breakpoint
CREATE TRIGGER `surgeries_version_delete` AFTER DELETE ON `surgeries` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'surgeries';
END;--> statement-breakpoint
CREATE TRIGGER `payers_version_insert` AFTER INSERT ON `payers` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'payers';
END;--> statement-breakpoint
CREATE TRIGGER `payers_version_update` AFTER UPDATE ON `payers` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'payers';
END;--> statement-breakpoint
CREATE TRIGGER `payers_version_delete` AFTER DELETE ON `payers` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'payers';
END;
