DROP INDEX `financial_transactions_type_date_idx`;--> statement-breakpoint
DROP INDEX `financial_transactions_category_idx`;--> statement-breakpoint
CREATE INDEX `financial_transactions_type_date_amount_idx` ON `financial_transactions` (`type`,`transaction_date`,`id`,`amount_cents`);--> statement-breakpoint
CREATE INDEX `financial_transactions_category_date_idx` ON `financial_transactions` (`category`,`transaction_date`,`id`,`type`,`amount_cents`);