-- Tables of the maintained KPI aggregates (docs/decisions/0023-kpi-aggregates.md); migration 0024 fills them and adds the triggers.
CREATE TABLE `kpi_active_points` (
	`day_grain` text NOT NULL,
	`day_bucket` text NOT NULL,
	`prev_grain` text NOT NULL,
	`prev_bucket` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day_grain`, `day_bucket`, `prev_grain`, `prev_bucket`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `kpi_appointment_buckets` (
	`doctor_id` integer NOT NULL,
	`grain` text NOT NULL,
	`bucket` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`cancelled` integer DEFAULT 0 NOT NULL,
	`completed` integer DEFAULT 0 NOT NULL,
	`open` integer DEFAULT 0 NOT NULL,
	`lead_n` integer DEFAULT 0 NOT NULL,
	`lead_ms` integer DEFAULT 0 NOT NULL,
	`converted` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`doctor_id`, `grain`, `bucket`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `kpi_clinic_offsets` (
	`from_ms` integer PRIMARY KEY NOT NULL,
	`offset_ms` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `kpi_new_patient_referrers` (
	`grain` text NOT NULL,
	`bucket` text NOT NULL,
	`referrer_id` integer NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`grain`, `bucket`, `referrer_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `kpi_new_patients` (
	`grain` text NOT NULL,
	`bucket` text NOT NULL,
	`insurance` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`grain`, `bucket`, `insurance`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `kpi_outbound_messages` (
	`grain` text NOT NULL,
	`bucket` text NOT NULL,
	`status` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`grain`, `bucket`, `status`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `kpi_patient_days` (
	`patient_id` integer NOT NULL,
	`day` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`patient_id`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `patients_insurance_created_idx` ON `patients` (`insurance`,`created_at`);--> statement-breakpoint
CREATE INDEX `surgeries_patient_created_idx` ON `surgeries` (`patient_id`,`created_at`);