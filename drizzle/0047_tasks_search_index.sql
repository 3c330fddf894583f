-- The stat cards of a task search test every task's key (a LIKE): read from an index holding the key,
-- the status and the due date instead of the table's rows, 20 -> 6 ms on 60 000 tasks (ADR 0013).
CREATE INDEX `tasks_search_status_due_idx` ON `tasks` (`search_text`,`status`,`due_date`);
