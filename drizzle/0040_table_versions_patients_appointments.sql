-- The lists' pages and searches kept until the tables they read change (app/.server/data-cache.ts,
-- `tablesWriteCache`), as the fee reports are (migrations 0036 and 0037): a patient search was
-- read again after every appointment, task, payment or message written anywhere. Each write to these
-- tables, from any connection, moves its version.
INSERT INTO `table_versions` (`table_name`, `version`) VALUES ('patients', 0), ('appointments', 0);--> statement-breakpoint
CREATE TRIGGER `patients_version_insert` AFTER INSERT ON `patients` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'patients';
END;--> statement-breakpoint
CREATE TRIGGER `patients_version_update` AFTER UPDATE ON `patients` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'patients';
END;--> statement-breakpoint
CREATE TRIGGER `patients_version_delete` AFTER DELETE ON `patients` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'patients';
END;--> statement-breakpoint
CREATE TRIGGER `appointments_version_insert` AFTER INSERT ON `appointments` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'appointments';
END;--> statement-breakpoint
CREATE TRIGGER `appointments_version_update` AFTER UPDATE ON `appointments` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'appointments';
END;--> statement-breakpoint
CREATE TRIGGER `appointments_version_delete` AFTER DELETE ON `appointments` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'appointments';
END;
