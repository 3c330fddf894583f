CREATE TABLE `patient_referrals` (
	`patient_id` integer PRIMARY KEY NOT NULL,
	`referrer_id` integer NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`referrer_id`) REFERENCES `referrers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `patient_referrals_referrer_idx` ON `patient_referrals` (`referrer_id`,`patient_id`);--> statement-breakpoint
CREATE TABLE `order_status_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`changed_by` integer,
	`changed_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`changed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "order_status_changes_from_check" CHECK("order_status_changes"."from_status" in ('pending', 'approved', 'ordered', 'delivered', 'cancelled')),
	CONSTRAINT "order_status_changes_to_check" CHECK("order_status_changes"."to_status" in ('pending', 'approved', 'ordered', 'delivered', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX `order_status_changes_order_idx` ON `order_status_changes` (`order_id`,`changed_at`);--> statement-breakpoint
CREATE TABLE `sop_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sop_id` integer NOT NULL,
	`version` integer NOT NULL,
	`title` text NOT NULL,
	`category` text NOT NULL,
	`content_md` text NOT NULL,
	`status` text NOT NULL,
	`edited_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`sop_id`) REFERENCES `sops`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`edited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "sop_versions_status_check" CHECK("sop_versions"."status" in ('draft', 'active', 'archived'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sop_versions_sop_version_unique` ON `sop_versions` (`sop_id`,`version`);--> statement-breakpoint
DROP INDEX `orders_status_idx`;--> statement-breakpoint
CREATE INDEX `orders_status_created_idx` ON `orders` (`status`,`created_at`);--> statement-breakpoint
-- New columns are added in place (no table rebuild): existing rows keep their data and get the defaults,
-- and the foreign keys that point at these tables (surgeries, orders) are untouched.
ALTER TABLE `hospitals` ADD `cnes` text CONSTRAINT "hospitals_cnes_check" CHECK(`cnes` is null or (length(`cnes`) = 7 and `cnes` not glob '*[^0-9]*'));
--> statement-breakpoint
ALTER TABLE `medical_codes` ADD `porte` text CONSTRAINT "medical_codes_porte_check" CHECK(`porte` is null or `porte` glob '[1-9][ABC]' or `porte` glob '1[0-4][ABC]');
--> statement-breakpoint
ALTER TABLE `medical_codes` ADD `assistants_count` integer CONSTRAINT "medical_codes_assistants_check" CHECK(`assistants_count` is null or `assistants_count` between 0 and 4);
--> statement-breakpoint
ALTER TABLE `medical_codes` ADD `anesthetic_porte` integer CONSTRAINT "medical_codes_anesthetic_porte_check" CHECK(`anesthetic_porte` is null or `anesthetic_porte` between 0 and 8);
--> statement-breakpoint
ALTER TABLE `payers` ADD `ans_registration` text CONSTRAINT "payers_ans_registration_check" CHECK(`ans_registration` is null or (length(`ans_registration`) = 6 and `ans_registration` not glob '*[^0-9]*'));
--> statement-breakpoint
ALTER TABLE `payers` ADD `assistant_1_fee_percent` integer DEFAULT 60 NOT NULL CHECK(`assistant_1_fee_percent` between 0 and 100);
--> statement-breakpoint
ALTER TABLE `payers` ADD `assistant_2_fee_percent` integer DEFAULT 40 NOT NULL CHECK(`assistant_2_fee_percent` between 0 and 100);
--> statement-breakpoint
ALTER TABLE `payers` ADD `assistant_3_fee_percent` integer DEFAULT 30 NOT NULL CHECK(`assistant_3_fee_percent` between 0 and 100);
--> statement-breakpoint
ALTER TABLE `payers` ADD `assistant_4_fee_percent` integer DEFAULT 30 NOT NULL CHECK(`assistant_4_fee_percent` between 0 and 100);
--> statement-breakpoint
ALTER TABLE `payers` ADD `multiple_same_route_percent` integer DEFAULT 50 NOT NULL CHECK(`multiple_same_route_percent` between 0 and 100);
--> statement-breakpoint
ALTER TABLE `payers` ADD `multiple_other_route_percent` integer DEFAULT 70 NOT NULL CHECK(`multiple_other_route_percent` between 0 and 100);
--> statement-breakpoint
ALTER TABLE `payers` ADD `urgency_surcharge_percent` integer DEFAULT 30 NOT NULL CHECK(`urgency_surcharge_percent` between 0 and 100);
--> statement-breakpoint
ALTER TABLE `payers` ADD `cbhpm_edition` text;
--> statement-breakpoint
ALTER TABLE `payers` ADD `cbhpm_band` text DEFAULT 'original' NOT NULL CONSTRAINT "payers_cbhpm_band_check" CHECK(`cbhpm_band` in ('original', 'faixa_1', 'faixa_2', 'faixa_3'));
--> statement-breakpoint
ALTER TABLE `referrers` ADD `crm_uf` text CONSTRAINT "referrers_crm_uf_check" CHECK(`crm_uf` is null or length(`crm_uf`) = 2);
--> statement-breakpoint
CREATE INDEX `hospitals_search_text_idx` ON `hospitals` (`search_text`);
--> statement-breakpoint
CREATE INDEX `hospitals_cnpj_idx` ON `hospitals` (`cnpj`);
--> statement-breakpoint
CREATE INDEX `medical_codes_search_text_idx` ON `medical_codes` (`search_text`);
--> statement-breakpoint
CREATE INDEX `payers_search_text_idx` ON `payers` (`search_text`);
--> statement-breakpoint
CREATE INDEX `payers_cnpj_idx` ON `payers` (`cnpj`);
--> statement-breakpoint
CREATE INDEX `referrers_search_text_idx` ON `referrers` (`search_text`);
--> statement-breakpoint
CREATE INDEX `suppliers_search_text_idx` ON `suppliers` (`search_text`);
--> statement-breakpoint
CREATE INDEX `suppliers_cnpj_idx` ON `suppliers` (`cnpj`);
