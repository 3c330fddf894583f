-- The WhatsApp message log at a practice's 20 years (hundreds of thousands of messages), as the other
-- big lists are: its unfiltered total from a counter kept by triggers (migration 0003), so a view
-- neither counts ten thousand messages to show '10.000+' nor OFFSETs to a typed page; and its pages
-- kept until a message is written (`pageUntilWrite`, migration 0040). A message's status moving
-- (sent, delivered, read) is a write: the page shows it at once.
INSERT INTO `row_counts` (`table_name`, `n`) SELECT 'messages', count(*) FROM `messages`;--> statement-breakpoint
CREATE TRIGGER `messages_count_ai` AFTER INSERT ON `messages` BEGIN
  UPDATE `row_counts` SET `n` = `n` + 1 WHERE `table_name` = 'messages';
END;--> statement-breakpoint
CREATE TRIGGER `messages_count_ad` AFTER DELETE ON `messages` BEGIN
  UPDATE `row_counts` SET `n` = `n` - 1 WHERE `table_name` = 'messages';
END;--> statement-breakpoint
INSERT INTO `table_versions` (`table_name`, `version`) VALUES ('messages', 0);--> statement-breakpoint
CREATE TRIGGER `messages_version_insert` AFTER INSERT ON `messages` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'messages';
END;--> statement-breakpoint
CREATE TRIGGER `messages_version_update` AFTER UPDATE ON `messages` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'messages';
END;--> statement-breakpoint
CREATE TRIGGER `messages_version_delete` AFTER DELETE ON `messages` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'messages';
END;
