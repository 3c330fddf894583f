-- Versions of the tables a kept report reads (app/.server/data-cache.ts, `cachedUntilTablesChange`).
-- The data cache keeps a value until the next write anywhere; the fee report by doctor sums every fee
-- line (80-130 ms on a large practice without dates) and was computed again after each appointment,
-- patient or payment written meanwhile. Each write to these tables, from any connection, moves its version.
CREATE TABLE `table_versions` (`table_name` text PRIMARY KEY NOT NULL, `version` integer NOT NULL) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `table_versions` (`table_name`, `version`) VALUES ('surgery_fee_lines', 0), ('doctors', 0);--> statement-breakpoint
CREATE TRIGGER `surgery_fee_lines_version_insert` AFTER INSERT ON `surgery_fee_lines` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'surgery_fee_lines';
END;--> statement-breakpoint
CREATE TRIGGER `surgery_fee_lines_version_update` AFTER UPDATE ON `surgery_fee_lines` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'surgery_fee_lines';
END;--> statement-breakpoint
CREATE TRIGGER `surgery_fee_lines_version_delete` AFTER DELETE ON `surgery_fee_lines` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'surgery_fee_lines';
END;--> statement-breakpoint
CREATE TRIGGER `doctors_version_insert` AFTER INSERT ON `doctors` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'doctors';
END;--> statement-breakpoint
CREATE TRIGGER `doctors_version_update` AFTER UPDATE ON `doctors` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'doctors';
END;--> statement-breakpoint
CREATE TRIGGER `doctors_version_delete` AFTER DELETE ON `doctors` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'doctors';
END;
