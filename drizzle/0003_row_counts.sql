-- Row counts of the big tables, kept in step by triggers, so an unfiltered list shows its total
-- without counting a million rows on every page (docs/decisions/0009-list-totals-and-keyset-pages.md).
CREATE TABLE `row_counts` (`table_name` text PRIMARY KEY NOT NULL, `n` integer NOT NULL) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `row_counts` (`table_name`, `n`) SELECT 'patients', count(*) FROM `patients`;
--> statement-breakpoint
CREATE TRIGGER `patients_count_ai` AFTER INSERT ON `patients` BEGIN
  UPDATE `row_counts` SET `n` = `n` + 1 WHERE `table_name` = 'patients';
END;
--> statement-breakpoint
CREATE TRIGGER `patients_count_ad` AFTER DELETE ON `patients` BEGIN
  UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'patients';
END;
--> statement-breakpoint
INSERT INTO `row_counts` (`table_name`, `n`) SELECT 'appointments', count(*) FROM `appointments`;
--> statement-breakpoint
CREATE TRIGGER `appointments_count_ai` AFTER INSERT ON `appointments` BEGIN
  UPDATE `row_counts` SET `n` = `n` + 1 WHERE `table_name` = 'appointments';
END;
--> statement-breakpoint
CREATE TRIGGER `appointments_count_ad` AFTER DELETE ON `appointments` BEGIN
  UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'appointments';
END;
--> statement-breakpoint
INSERT INTO `row_counts` (`table_name`, `n`) SELECT 'surgeries', count(*) FROM `surgeries`;
--> statement-breakpoint
CREATE TRIGGER `surgeries_count_ai` AFTER INSERT ON `surgeries` BEGIN
  UPDATE `row_counts` SET `n` = `n` + 1 WHERE `table_name` = 'surgeries';
END;
--> statement-breakpoint
CREATE TRIGGER `surgeries_count_ad` AFTER DELETE ON `surgeries` BEGIN
  UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'surgeries';
END;
--> statement-breakpoint
INSERT INTO `row_counts` (`table_name`, `n`) SELECT 'doctors', count(*) FROM `doctors`;
--> statement-breakpoint
CREATE TRIGGER `doctors_count_ai` AFTER INSERT ON `doctors` BEGIN
  UPDATE `row_counts` SET `n` = `n` + 1 WHERE `table_name` = 'doctors';
END;
--> statement-breakpoint
CREATE TRIGGER `doctors_count_ad` AFTER DELETE ON `doctors` BEGIN
  UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'doctors';
END;
--> statement-breakpoint
INSERT INTO `row_counts` (`table_name`, `n`) SELECT 'financial_transactions', count(*) FROM `financial_transactions`;
--> statement-breakpoint
CREATE TRIGGER `financial_transactions_count_ai` AFTER INSERT ON `financial_transactions` BEGIN
  UPDATE `row_counts` SET `n` = `n` + 1 WHERE `table_name` = 'financial_transactions';
END;
--> statement-breakpoint
CREATE TRIGGER `financial_transactions_count_ad` AFTER DELETE ON `financial_transactions` BEGIN
  UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'financial_transactions';
END;
