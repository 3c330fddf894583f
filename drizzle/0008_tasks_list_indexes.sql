DROP INDEX `tasks_priority_idx`;--> statement-breakpoint
DROP INDEX `tasks_category_idx`;--> statement-breakpoint
DROP INDEX `tasks_assignee_idx`;--> statement-breakpoint
ALTER TABLE `tasks` ADD `due_sort` text GENERATED ALWAYS AS (coalesce(due_date, '9999-12-31')) VIRTUAL;--> statement-breakpoint
CREATE INDEX `tasks_due_sort_idx` ON `tasks` (`due_sort`);--> statement-breakpoint
CREATE INDEX `tasks_priority_status_due_idx` ON `tasks` (`priority`,`status`,`due_date`);--> statement-breakpoint
CREATE INDEX `tasks_category_status_due_idx` ON `tasks` (`category`,`status`,`due_date`);--> statement-breakpoint
CREATE INDEX `tasks_assignee_status_due_idx` ON `tasks` (`assignee_id`,`status`,`due_date`);