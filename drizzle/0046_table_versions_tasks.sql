-- The task list's page and stat cards kept until the tables they read change (app/models/task.server.ts,
-- `pageUntilWrite`), as the other lists are (migration 0040): at a practice's 20 years (60 000 tasks) the
-- five cards counted every task on each view (7-10 ms, 18 with a search). A page reads the tasks, their
-- checklists and the names of their patients, surgeries and assignees (profiles). Each write to these
-- tables, from any connection, moves its version.
INSERT INTO `table_versions` (`table_name`, `version`) VALUES ('tasks', 0), ('subtasks', 0), ('profiles', 0);--> statement-breakpoint
CREATE TRIGGER `tasks_version_insert` AFTER INSERT ON `tasks` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'tasks';
END;--> statement-breakpoint
CREATE TRIGGER `tasks_version_update` AFTER UPDATE ON `tasks` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'tasks';
END;--> statement-breakpoint
CREATE TRIGGER `tasks_version_delete` AFTER DELETE ON `tasks` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'tasks';
END;--> statement-breakpoint
CREATE TRIGGER `subtasks_version_insert` AFTER INSERT ON `subtasks` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'subtasks';
END;--> statement-breakpoint
CREATE TRIGGER `subtasks_version_update` AFTER UPDATE ON `subtasks` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'subtasks';
END;--> statement-breakpoint
CREATE TRIGGER `subtasks_version_delete` AFTER DELETE ON `subtasks` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'subtasks';
END;--> statement-breakpoint
CREATE TRIGGER `profiles_version_insert` AFTER INSERT ON `profiles` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'profiles';
END;--> statement-breakpoint
CREATE TRIGGER `profiles_version_update` AFTER UPDATE ON `profiles` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'profiles';
END;--> statement-breakpoint
CREATE TRIGGER `profiles_version_delete` AFTER DELETE ON `profiles` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `table_name` = 'profiles';
END;
