-- Tables of the maintained aggregates of KPIs Cirúrgicos and Financeiros (docs/decisions/0024-kpi-aggregates-surgical-financial.md); migration 0027 fills them and adds the triggers.
CREATE TABLE `kpi_rollups` (
	`metric` text NOT NULL,
	`doctor_id` integer NOT NULL,
	`payer_id` integer NOT NULL,
	`level` text NOT NULL,
	`unit` text NOT NULL,
	`k1` text NOT NULL,
	`k2` integer NOT NULL,
	`n` integer NOT NULL,
	`v1` integer NOT NULL,
	`v2` integer NOT NULL,
	`v3` integer NOT NULL,
	PRIMARY KEY(`metric`, `doctor_id`, `payer_id`, `level`, `unit`, `k1`, `k2`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `kpi_stage_stays` (
	`stage_id` integer PRIMARY KEY NOT NULL,
	`surgery_id` integer NOT NULL,
	`stage` text NOT NULL,
	`tenths` integer NOT NULL,
	`day` text NOT NULL,
	`doctor_id` integer NOT NULL,
	`payer_id` integer
);
--> statement-breakpoint
CREATE INDEX `kpi_stage_stays_surgery_idx` ON `kpi_stage_stays` (`surgery_id`);--> statement-breakpoint
CREATE INDEX `kpi_stage_stays_day_idx` ON `kpi_stage_stays` (`day`,`stage`,`tenths`,`doctor_id`,`payer_id`);--> statement-breakpoint
CREATE INDEX `kpi_stage_stays_doctor_payer_day_idx` ON `kpi_stage_stays` (`doctor_id`,`payer_id`,`day`,`stage`,`tenths`);--> statement-breakpoint
CREATE TABLE `kpi_surgery_facts` (
	`surgery_id` integer PRIMARY KEY NOT NULL,
	`day` text NOT NULL,
	`doctor_id` integer NOT NULL,
	`payer_id` integer,
	`stage` text NOT NULL,
	`procedure` text NOT NULL,
	`ans_requested_day` text,
	`ans_answered_day` text,
	`ans_answered` integer NOT NULL,
	`ans_denied` integer NOT NULL,
	`paid_day` text,
	`paid_ms` integer,
	`billed_cents` integer,
	`denied_cents` integer NOT NULL,
	`recovered_cents` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `kpi_surgery_facts_day_idx` ON `kpi_surgery_facts` (`day`,`doctor_id`,`payer_id`,`stage`,`procedure`,`billed_cents`,`denied_cents`,`recovered_cents`);--> statement-breakpoint
CREATE INDEX `kpi_surgery_facts_doctor_payer_day_idx` ON `kpi_surgery_facts` (`doctor_id`,`payer_id`,`day`,`stage`,`procedure`);--> statement-breakpoint
CREATE INDEX `kpi_surgery_facts_paid_idx` ON `kpi_surgery_facts` (`paid_day`,`doctor_id`,`payer_id`,`paid_ms`) WHERE "kpi_surgery_facts"."paid_day" is not null;--> statement-breakpoint
CREATE INDEX `kpi_surgery_facts_ans_idx` ON `kpi_surgery_facts` (`day`,`payer_id`,`doctor_id`,`ans_requested_day`,`ans_answered_day`,`ans_answered`,`ans_denied`) WHERE "kpi_surgery_facts"."ans_requested_day" is not null;--> statement-breakpoint
CREATE INDEX `kpi_surgery_facts_doctor_ans_idx` ON `kpi_surgery_facts` (`doctor_id`,`day`,`payer_id`,`ans_requested_day`,`ans_answered_day`,`ans_answered`,`ans_denied`) WHERE "kpi_surgery_facts"."ans_requested_day" is not null;--> statement-breakpoint
CREATE INDEX `kpi_surgery_facts_payer_ans_idx` ON `kpi_surgery_facts` (`payer_id`,`day`,`doctor_id`,`ans_requested_day`,`ans_answered_day`,`ans_answered`,`ans_denied`) WHERE "kpi_surgery_facts"."ans_requested_day" is not null;--> statement-breakpoint
CREATE INDEX `surgeries_open_receivables_idx` ON `surgeries` (`scheduled_date`,`billed_at`,`billed_amount_cents`,`doctor_id`,`payer_id`,`receivable_status`) WHERE "surgeries"."receivable_status" in ('realizado', 'faturado', 'pendente', 'glosa');