CREATE TABLE `opme_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` integer NOT NULL,
	`description` text NOT NULL,
	`quantity` integer NOT NULL,
	`anvisa_registration` text,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `opme_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "opme_items_quantity_check" CHECK("opme_items"."quantity" between 1 and 9999),
	CONSTRAINT "opme_items_anvisa_check" CHECK("opme_items"."anvisa_registration" is null or (length("opme_items"."anvisa_registration") = 11 and "opme_items"."anvisa_registration" not glob '*[^0-9]*'))
);
--> statement-breakpoint
CREATE INDEX `opme_items_request_position_idx` ON `opme_items` (`request_id`,`position`);--> statement-breakpoint
CREATE TABLE `opme_quote_prices` (
	`quote_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`unit_price_cents` integer NOT NULL,
	PRIMARY KEY(`quote_id`, `item_id`),
	FOREIGN KEY (`quote_id`) REFERENCES `opme_quotes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `opme_items`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "opme_quote_prices_price_check" CHECK("opme_quote_prices"."unit_price_cents" >= 0)
);
--> statement-breakpoint
CREATE INDEX `opme_quote_prices_item_idx` ON `opme_quote_prices` (`item_id`);--> statement-breakpoint
CREATE TABLE `opme_quotes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` integer NOT NULL,
	`supplier_id` integer NOT NULL,
	`valid_until` text NOT NULL,
	`notes` text,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `opme_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`supplier_id`) REFERENCES `suppliers`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "opme_quotes_valid_until_check" CHECK("opme_quotes"."valid_until" is null or (length("opme_quotes"."valid_until") = 10 and date("opme_quotes"."valid_until") = "opme_quotes"."valid_until"))
);
--> statement-breakpoint
CREATE INDEX `opme_quotes_request_supplier_idx` ON `opme_quotes` (`request_id`,`supplier_id`);--> statement-breakpoint
CREATE INDEX `opme_quotes_supplier_idx` ON `opme_quotes` (`supplier_id`);--> statement-breakpoint
CREATE TABLE `opme_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`surgery_id` integer NOT NULL,
	`chosen_quote_id` integer,
	`choice_reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chosen_quote_id`) REFERENCES `opme_quotes`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `opme_requests_surgery_unique` ON `opme_requests` (`surgery_id`);