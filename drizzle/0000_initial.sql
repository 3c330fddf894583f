CREATE TABLE `profiles` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`user_agent` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `user_roles` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`role` text NOT NULL,
	`granted_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`granted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "user_roles_role_check" CHECK("user_roles"."role" in ('admin', 'staff', 'doctor'))
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`action` text NOT NULL,
	`entity` text NOT NULL,
	`entity_id` text,
	`changes` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_log_entity_idx` ON `audit_log` (`entity`,`entity_id`);--> statement-breakpoint
CREATE INDEX `audit_log_created_idx` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_user_idx` ON `audit_log` (`user_id`);--> statement-breakpoint
CREATE TABLE `clinic_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`clinic_name` text DEFAULT 'Minha Clínica' NOT NULL,
	`time_zone` text DEFAULT 'America/Sao_Paulo' NOT NULL,
	`password_min_length` integer DEFAULT 8 NOT NULL,
	`cookie_secret` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "clinic_settings_single_row" CHECK("clinic_settings"."id" = 1),
	CONSTRAINT "clinic_settings_password_min" CHECK("clinic_settings"."password_min_length" between 8 and 128)
);
--> statement-breakpoint
CREATE TABLE `hospitals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`cnpj` text,
	`address` text,
	`city` text,
	`state` text,
	`postal_code` text,
	`contact_email` text,
	`contact_phone` text,
	`type` text DEFAULT 'private' NOT NULL,
	`accreditation` text,
	`active` integer DEFAULT true NOT NULL,
	`notes` text,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "hospitals_type_check" CHECK("hospitals"."type" in ('public', 'private', 'mixed')),
	CONSTRAINT "hospitals_cnpj_check" CHECK("hospitals"."cnpj" is null or "hospitals"."cnpj" glob '[0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9][0-9]'),
	CONSTRAINT "hospitals_state_check" CHECK("hospitals"."state" is null or length("hospitals"."state") = 2)
);
--> statement-breakpoint
CREATE INDEX `hospitals_name_idx` ON `hospitals` (`name`);--> statement-breakpoint
CREATE INDEX `hospitals_type_idx` ON `hospitals` (`type`);--> statement-breakpoint
CREATE INDEX `hospitals_active_name_idx` ON `hospitals` (`active`,`name`);--> statement-breakpoint
CREATE TABLE `medical_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`type` text NOT NULL,
	`description` text NOT NULL,
	`category` text,
	`price_cents` integer,
	`active` integer DEFAULT true NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "medical_codes_type_check" CHECK("medical_codes"."type" in ('icd10', 'cbhpm', 'tuss', 'custom')),
	CONSTRAINT "medical_codes_price_check" CHECK("medical_codes"."price_cents" is null or "medical_codes"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `medical_codes_type_code_unique` ON `medical_codes` (`type`,`code`);--> statement-breakpoint
CREATE INDEX `medical_codes_code_idx` ON `medical_codes` (`code`);--> statement-breakpoint
CREATE INDEX `medical_codes_category_idx` ON `medical_codes` (`category`);--> statement-breakpoint
CREATE INDEX `medical_codes_active_idx` ON `medical_codes` (`active`);--> statement-breakpoint
CREATE TABLE `payers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`type` text DEFAULT 'insurance' NOT NULL,
	`cnpj` text,
	`contact_email` text,
	`contact_phone` text,
	`payment_terms_days` integer DEFAULT 30 NOT NULL,
	`coverage_percentage` real DEFAULT 100 NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`notes` text,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "payers_type_check" CHECK("payers"."type" in ('insurance', 'government', 'private')),
	CONSTRAINT "payers_cnpj_check" CHECK("payers"."cnpj" is null or "payers"."cnpj" glob '[0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9][0-9]'),
	CONSTRAINT "payers_payment_terms_check" CHECK("payers"."payment_terms_days" >= 0),
	CONSTRAINT "payers_coverage_check" CHECK("payers"."coverage_percentage" between 0 and 100)
);
--> statement-breakpoint
CREATE INDEX `payers_name_idx` ON `payers` (`name`);--> statement-breakpoint
CREATE INDEX `payers_type_idx` ON `payers` (`type`);--> statement-breakpoint
CREATE INDEX `payers_active_name_idx` ON `payers` (`active`,`name`);--> statement-breakpoint
CREATE TABLE `suppliers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`cnpj` text,
	`type` text DEFAULT 'opme' NOT NULL,
	`contact_email` text,
	`contact_phone` text,
	`address` text,
	`payment_terms_days` integer DEFAULT 30 NOT NULL,
	`quality_rating` real DEFAULT 5 NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`notes` text,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "suppliers_type_check" CHECK("suppliers"."type" in ('opme', 'pharmaceutical', 'equipment', 'supplies', 'other')),
	CONSTRAINT "suppliers_cnpj_check" CHECK("suppliers"."cnpj" is null or "suppliers"."cnpj" glob '[0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9][0-9]'),
	CONSTRAINT "suppliers_payment_terms_check" CHECK("suppliers"."payment_terms_days" >= 0),
	CONSTRAINT "suppliers_quality_rating_check" CHECK("suppliers"."quality_rating" between 0 and 5)
);
--> statement-breakpoint
CREATE INDEX `suppliers_name_idx` ON `suppliers` (`name`);--> statement-breakpoint
CREATE INDEX `suppliers_type_idx` ON `suppliers` (`type`);--> statement-breakpoint
CREATE INDEX `suppliers_active_name_idx` ON `suppliers` (`active`,`name`);--> statement-breakpoint
CREATE TABLE `appointments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`patient_id` integer NOT NULL,
	`doctor_id` integer NOT NULL,
	`start_time` integer NOT NULL,
	`end_time` integer NOT NULL,
	`status` text DEFAULT 'scheduled' NOT NULL,
	`type` text NOT NULL,
	`notes` text,
	`location` text,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`doctor_id`) REFERENCES `doctors`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "appointments_status_check" CHECK("appointments"."status" in ('scheduled', 'confirmed', 'completed', 'cancelled')),
	CONSTRAINT "appointments_time_order_check" CHECK("appointments"."end_time" > "appointments"."start_time")
);
--> statement-breakpoint
CREATE INDEX `appointments_start_time_idx` ON `appointments` (`start_time`);--> statement-breakpoint
CREATE INDEX `appointments_doctor_start_idx` ON `appointments` (`doctor_id`,`start_time`);--> statement-breakpoint
CREATE INDEX `appointments_patient_start_idx` ON `appointments` (`patient_id`,`start_time`);--> statement-breakpoint
CREATE INDEX `appointments_status_start_idx` ON `appointments` (`status`,`start_time`);--> statement-breakpoint
CREATE TABLE `doctors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`specialty` text NOT NULL,
	`crm` text NOT NULL,
	`crm_uf` text,
	`phone` text,
	`email` text,
	`commission_rate` real DEFAULT 0 NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`user_id` integer,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "doctors_commission_rate_check" CHECK("doctors"."commission_rate" between 0 and 1),
	CONSTRAINT "doctors_crm_uf_check" CHECK("doctors"."crm_uf" is null or length("doctors"."crm_uf") = 2)
);
--> statement-breakpoint
CREATE INDEX `doctors_name_idx` ON `doctors` (`name`);--> statement-breakpoint
CREATE INDEX `doctors_specialty_name_idx` ON `doctors` (`specialty`,`name`);--> statement-breakpoint
CREATE INDEX `doctors_active_name_idx` ON `doctors` (`active`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `doctors_user_unique` ON `doctors` (`user_id`);--> statement-breakpoint
CREATE TABLE `patients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`cpf` text,
	`date_of_birth` text,
	`phone` text,
	`email` text,
	`address` text,
	`insurance` text,
	`medical_history` text,
	`whatsapp_opt_in` integer DEFAULT false NOT NULL,
	`whatsapp_opt_in_at` integer,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "patients_cpf_check" CHECK("patients"."cpf" is null or (length("patients"."cpf") = 11 and "patients"."cpf" not glob '*[^0-9]*')),
	CONSTRAINT "patients_date_of_birth_check" CHECK("patients"."date_of_birth" is null or (length("patients"."date_of_birth") = 10 and date("patients"."date_of_birth") = "patients"."date_of_birth")),
	CONSTRAINT "patients_name_check" CHECK(length(trim("patients"."name")) > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `patients_cpf_unique` ON `patients` (`cpf`);--> statement-breakpoint
CREATE INDEX `patients_name_idx` ON `patients` (`name`);--> statement-breakpoint
CREATE INDEX `patients_created_at_idx` ON `patients` (`created_at`);--> statement-breakpoint
CREATE INDEX `patients_whatsapp_opt_in_idx` ON `patients` (`whatsapp_opt_in`);--> statement-breakpoint
CREATE TABLE `referrers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`specialty` text,
	`crm` text,
	`phone` text,
	`email` text,
	`commission_rate` real DEFAULT 0 NOT NULL,
	`notes` text,
	`active` integer DEFAULT true NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "referrers_commission_rate_check" CHECK("referrers"."commission_rate" between 0 and 1)
);
--> statement-breakpoint
CREATE INDEX `referrers_name_idx` ON `referrers` (`name`);--> statement-breakpoint
CREATE INDEX `referrers_active_idx` ON `referrers` (`active`);--> statement-breakpoint
CREATE TABLE `pipeline_stages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`surgery_id` integer NOT NULL,
	`stage` text NOT NULL,
	`from_stage` text,
	`moved_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`moved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "pipeline_stages_stage_check" CHECK("pipeline_stages"."stage" in ('aguarda_docs', 'enviado_pre_aut', 'aguardando_parecer', 'opme_cotacao', 'aprovado', 'negado', 'agendado', 'em_cirurgia', 'concluido', 'cancelado')),
	CONSTRAINT "pipeline_stages_from_stage_check" CHECK("pipeline_stages"."from_stage" in ('aguarda_docs', 'enviado_pre_aut', 'aguardando_parecer', 'opme_cotacao', 'aprovado', 'negado', 'agendado', 'em_cirurgia', 'concluido', 'cancelado'))
);
--> statement-breakpoint
CREATE INDEX `pipeline_stages_surgery_created_idx` ON `pipeline_stages` (`surgery_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `surgeries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`patient_id` integer NOT NULL,
	`doctor_id` integer NOT NULL,
	`surgery_type` text NOT NULL,
	`scheduled_date` integer NOT NULL,
	`status` text DEFAULT 'scheduled' NOT NULL,
	`estimated_duration_min` integer,
	`notes` text,
	`hospital` text,
	`hospital_id` integer,
	`current_stage` text DEFAULT 'aguarda_docs' NOT NULL,
	`billed_amount_cents` integer,
	`guide_number` text,
	`payer_name` text,
	`payer_id` integer,
	`receivable_status` text,
	`billed_at` integer,
	`paid_at` integer,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`doctor_id`) REFERENCES `doctors`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`hospital_id`) REFERENCES `hospitals`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`payer_id`) REFERENCES `payers`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "surgeries_status_check" CHECK("surgeries"."status" in ('scheduled', 'completed', 'cancelled')),
	CONSTRAINT "surgeries_current_stage_check" CHECK("surgeries"."current_stage" in ('aguarda_docs', 'enviado_pre_aut', 'aguardando_parecer', 'opme_cotacao', 'aprovado', 'negado', 'agendado', 'em_cirurgia', 'concluido', 'cancelado')),
	CONSTRAINT "surgeries_receivable_status_check" CHECK("surgeries"."receivable_status" in ('realizado', 'faturado', 'pendente', 'glosa', 'pago')),
	CONSTRAINT "surgeries_duration_check" CHECK("surgeries"."estimated_duration_min" is null or "surgeries"."estimated_duration_min" > 0),
	CONSTRAINT "surgeries_billed_amount_check" CHECK("surgeries"."billed_amount_cents" is null or "surgeries"."billed_amount_cents" >= 0)
);
--> statement-breakpoint
CREATE INDEX `surgeries_scheduled_date_idx` ON `surgeries` (`scheduled_date`);--> statement-breakpoint
CREATE INDEX `surgeries_stage_date_idx` ON `surgeries` (`current_stage`,`scheduled_date`);--> statement-breakpoint
CREATE INDEX `surgeries_status_date_idx` ON `surgeries` (`status`,`scheduled_date`);--> statement-breakpoint
CREATE INDEX `surgeries_doctor_date_idx` ON `surgeries` (`doctor_id`,`scheduled_date`);--> statement-breakpoint
CREATE INDEX `surgeries_patient_date_idx` ON `surgeries` (`patient_id`,`scheduled_date`);--> statement-breakpoint
CREATE INDEX `surgeries_payer_idx` ON `surgeries` (`payer_id`);--> statement-breakpoint
CREATE INDEX `surgeries_hospital_idx` ON `surgeries` (`hospital_id`);--> statement-breakpoint
CREATE INDEX `surgeries_receivable_date_idx` ON `surgeries` (`receivable_status`,`scheduled_date`);--> statement-breakpoint
CREATE INDEX `surgeries_paid_at_idx` ON `surgeries` (`paid_at`);--> statement-breakpoint
CREATE TABLE `surgery_fee_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`surgery_id` integer NOT NULL,
	`doctor_id` integer NOT NULL,
	`role` text NOT NULL,
	`medical_code_id` integer,
	`amount_cents` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`doctor_id`) REFERENCES `doctors`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`medical_code_id`) REFERENCES `medical_codes`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "surgery_fee_lines_role_check" CHECK("surgery_fee_lines"."role" in ('principal', 'auxiliar', 'anestesista')),
	CONSTRAINT "surgery_fee_lines_amount_check" CHECK("surgery_fee_lines"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE INDEX `surgery_fee_lines_surgery_idx` ON `surgery_fee_lines` (`surgery_id`);--> statement-breakpoint
CREATE INDEX `surgery_fee_lines_doctor_role_idx` ON `surgery_fee_lines` (`doctor_id`,`role`);--> statement-breakpoint
CREATE INDEX `surgery_fee_lines_code_idx` ON `surgery_fee_lines` (`medical_code_id`);--> statement-breakpoint
CREATE TABLE `financial_transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`category` text NOT NULL,
	`description` text,
	`transaction_date` text NOT NULL,
	`surgery_id` integer,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "financial_transactions_type_check" CHECK("financial_transactions"."type" in ('receita', 'despesa')),
	CONSTRAINT "financial_transactions_amount_check" CHECK("financial_transactions"."amount_cents" > 0),
	CONSTRAINT "financial_transactions_date_check" CHECK("financial_transactions"."transaction_date" is null or (length("financial_transactions"."transaction_date") = 10 and date("financial_transactions"."transaction_date") = "financial_transactions"."transaction_date"))
);
--> statement-breakpoint
CREATE INDEX `financial_transactions_date_idx` ON `financial_transactions` (`transaction_date`);--> statement-breakpoint
CREATE INDEX `financial_transactions_type_date_idx` ON `financial_transactions` (`type`,`transaction_date`);--> statement-breakpoint
CREATE INDEX `financial_transactions_category_idx` ON `financial_transactions` (`category`);--> statement-breakpoint
CREATE INDEX `financial_transactions_surgery_idx` ON `financial_transactions` (`surgery_id`);--> statement-breakpoint
CREATE TABLE `reference_fee_schedules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`year` integer NOT NULL,
	`version` text DEFAULT '' NOT NULL,
	`code` text NOT NULL,
	`description` text NOT NULL,
	`base_value_cents` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "reference_fee_schedules_kind_check" CHECK("reference_fee_schedules"."kind" in ('CBHPM', 'TUSS', 'CUSTOM')),
	CONSTRAINT "reference_fee_schedules_year_check" CHECK("reference_fee_schedules"."year" between 1990 and 2100),
	CONSTRAINT "reference_fee_schedules_value_check" CHECK("reference_fee_schedules"."base_value_cents" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reference_fee_schedules_unique` ON `reference_fee_schedules` (`kind`,`year`,`version`,`code`);--> statement-breakpoint
CREATE INDEX `reference_fee_schedules_code_idx` ON `reference_fee_schedules` (`code`);--> statement-breakpoint
CREATE INDEX `reference_fee_schedules_year_idx` ON `reference_fee_schedules` (`year`);--> statement-breakpoint
CREATE TABLE `subtasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`task_id` integer NOT NULL,
	`title` text NOT NULL,
	`completed` integer DEFAULT false NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `subtasks_task_position_idx` ON `subtasks` (`task_id`,`position`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`priority` text DEFAULT 'medium' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`category` text DEFAULT 'general' NOT NULL,
	`due_date` text,
	`patient_id` integer,
	`surgery_id` integer,
	`assignee_id` integer,
	`completed_at` integer,
	`created_by` integer,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`surgery_id`) REFERENCES `surgeries`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`assignee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "tasks_priority_check" CHECK("tasks"."priority" in ('low', 'medium', 'high')),
	CONSTRAINT "tasks_status_check" CHECK("tasks"."status" in ('pending', 'in_progress', 'completed')),
	CONSTRAINT "tasks_category_check" CHECK("tasks"."category" in ('surgery', 'administrative', 'scheduling', 'general')),
	CONSTRAINT "tasks_due_date_check" CHECK("tasks"."due_date" is null or (length("tasks"."due_date") = 10 and date("tasks"."due_date") = "tasks"."due_date")),
	CONSTRAINT "tasks_title_check" CHECK(length(trim("tasks"."title")) > 0)
);
--> statement-breakpoint
CREATE INDEX `tasks_due_date_idx` ON `tasks` (`due_date`);--> statement-breakpoint
CREATE INDEX `tasks_status_due_idx` ON `tasks` (`status`,`due_date`);--> statement-breakpoint
CREATE INDEX `tasks_priority_idx` ON `tasks` (`priority`);--> statement-breakpoint
CREATE INDEX `tasks_category_idx` ON `tasks` (`category`);--> statement-breakpoint
CREATE INDEX `tasks_patient_idx` ON `tasks` (`patient_id`);--> statement-breakpoint
CREATE INDEX `tasks_surgery_idx` ON `tasks` (`surgery_id`);--> statement-breakpoint
CREATE INDEX `tasks_assignee_idx` ON `tasks` (`assignee_id`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`patient_id` integer,
	`order_type` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`supplier_id` integer,
	`total_cents` integer,
	`details_json` text,
	`created_by` integer,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`supplier_id`) REFERENCES `suppliers`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "orders_status_check" CHECK("orders"."status" in ('pending', 'approved', 'ordered', 'delivered', 'cancelled')),
	CONSTRAINT "orders_total_check" CHECK("orders"."total_cents" is null or "orders"."total_cents" >= 0),
	CONSTRAINT "orders_details_json_check" CHECK("orders"."details_json" is null or json_valid("orders"."details_json"))
);
--> statement-breakpoint
CREATE INDEX `orders_created_at_idx` ON `orders` (`created_at`);--> statement-breakpoint
CREATE INDEX `orders_status_idx` ON `orders` (`status`);--> statement-breakpoint
CREATE INDEX `orders_patient_idx` ON `orders` (`patient_id`);--> statement-breakpoint
CREATE INDEX `orders_supplier_idx` ON `orders` (`supplier_id`);--> statement-breakpoint
CREATE TABLE `sops` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`category` text NOT NULL,
	`content_md` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_by` integer,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "sops_status_check" CHECK("sops"."status" in ('draft', 'active', 'archived')),
	CONSTRAINT "sops_version_check" CHECK("sops"."version" >= 1)
);
--> statement-breakpoint
CREATE INDEX `sops_created_at_idx` ON `sops` (`created_at`);--> statement-breakpoint
CREATE INDEX `sops_status_idx` ON `sops` (`status`);--> statement-breakpoint
CREATE INDEX `sops_category_idx` ON `sops` (`category`);--> statement-breakpoint
CREATE TABLE `automation_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`template_id` integer NOT NULL,
	`trigger` text NOT NULL,
	`offset_minutes` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`template_id`) REFERENCES `message_templates`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "automation_rules_trigger_check" CHECK("automation_rules"."trigger" in ('appointment_created', 'appointment_start', 'appointment_completed', 'surgery_scheduled', 'surgery_date', 'surgery_completed', 'patient_created')),
	CONSTRAINT "automation_rules_name_check" CHECK(length(trim("automation_rules"."name")) > 0)
);
--> statement-breakpoint
CREATE INDEX `automation_rules_enabled_trigger_idx` ON `automation_rules` (`enabled`,`trigger`);--> statement-breakpoint
CREATE INDEX `automation_rules_template_idx` ON `automation_rules` (`template_id`);--> statement-breakpoint
CREATE TABLE `message_templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`category` text NOT NULL,
	`status` text DEFAULT 'rascunho' NOT NULL,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "message_templates_category_check" CHECK("message_templates"."category" in ('pos_consulta', 'agendamento', 'boas_vindas', 'procedimentos', 'encerramento')),
	CONSTRAINT "message_templates_status_check" CHECK("message_templates"."status" in ('aprovado', 'rascunho', 'inativo'))
);
--> statement-breakpoint
CREATE INDEX `message_templates_category_title_idx` ON `message_templates` (`category`,`title`);--> statement-breakpoint
CREATE INDEX `message_templates_status_idx` ON `message_templates` (`status`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`patient_id` integer,
	`template_id` integer,
	`patient_name` text NOT NULL,
	`template_title` text,
	`body` text NOT NULL,
	`to_phone` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`error` text,
	`external_id` text,
	`sent_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`template_id`) REFERENCES `message_templates`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`sent_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "messages_status_check" CHECK("messages"."status" in ('queued', 'sent', 'delivered', 'read', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `messages_created_at_idx` ON `messages` (`created_at`);--> statement-breakpoint
CREATE INDEX `messages_patient_created_idx` ON `messages` (`patient_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_status_idx` ON `messages` (`status`);--> statement-breakpoint
CREATE INDEX `messages_template_idx` ON `messages` (`template_id`);--> statement-breakpoint
CREATE INDEX `messages_external_id_idx` ON `messages` (`external_id`);--> statement-breakpoint
CREATE TABLE `google_connections` (
	`id` integer PRIMARY KEY NOT NULL,
	`email` text,
	`access_token` text,
	`refresh_token` text,
	`token_expires_at` integer,
	`scope` text,
	`connected_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`connected_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "google_connections_single_row" CHECK("google_connections"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE `google_drive_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`drive_file_id` text NOT NULL,
	`mime_type` text,
	`size_bytes` integer,
	`web_view_link` text,
	`uploaded_by` integer,
	`uploaded_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "google_drive_files_size_check" CHECK("google_drive_files"."size_bytes" is null or "google_drive_files"."size_bytes" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `google_drive_files_drive_file_id_unique` ON `google_drive_files` (`drive_file_id`);--> statement-breakpoint
CREATE INDEX `google_drive_files_uploaded_at_idx` ON `google_drive_files` (`uploaded_at`);--> statement-breakpoint
CREATE TABLE `google_forms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`form_id` text NOT NULL,
	`responder_uri` text,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `google_forms_form_id_unique` ON `google_forms` (`form_id`);--> statement-breakpoint
CREATE INDEX `google_forms_created_at_idx` ON `google_forms` (`created_at`);