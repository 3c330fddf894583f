-- The audit trail holds every id from `first_id` on: since 0044 the insert trigger takes only the id
-- after the last one, and no entry is ever removed (0004). A page of the trail, or of a date range of
-- it, is then found by arithmetic on ids, and its total is exact, where a typed page 50 000 walked
-- 1.25 million entries of a 470 MB table (250 ms, seconds from disk: docs/decisions/0008). Worked out
-- once here: the first entry after the last gap (a trail without gaps, the usual case, is told by
-- its count alone; an empty one starts at 1).
CREATE TABLE `audit_log_dense` (
  `id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
  `first_id` integer NOT NULL
);--> statement-breakpoint
INSERT INTO `audit_log_dense` (`id`, `first_id`)
SELECT 1, CASE
  WHEN (SELECT count(*) FROM `audit_log`) = coalesce((SELECT max(`id`) - min(`id`) + 1 FROM `audit_log`), 0)
    THEN coalesce((SELECT min(`id`) FROM `audit_log`), 1)
  ELSE (
    SELECT max(a.`id`) FROM `audit_log` a
    WHERE a.`id` > (SELECT min(`id`) FROM `audit_log`)
      AND NOT EXISTS (SELECT 1 FROM `audit_log` b WHERE b.`id` = a.`id` - 1)
  )
END;
