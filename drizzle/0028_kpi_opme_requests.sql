CREATE TABLE `kpi_opme_requests` (
	`request_id` integer PRIMARY KEY NOT NULL,
	`surgery_id` integer NOT NULL,
	`day` text NOT NULL,
	`doctor_id` integer NOT NULL,
	`payer_id` integer,
	`procedure` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `kpi_opme_requests_surgery_idx` ON `kpi_opme_requests` (`surgery_id`);--> statement-breakpoint
CREATE INDEX `kpi_opme_requests_day_idx` ON `kpi_opme_requests` (`day`,`doctor_id`,`payer_id`,`procedure`);--> statement-breakpoint
CREATE INDEX `kpi_opme_requests_doctor_day_idx` ON `kpi_opme_requests` (`doctor_id`,`day`,`payer_id`,`procedure`);--> statement-breakpoint
CREATE INDEX `kpi_opme_requests_payer_day_idx` ON `kpi_opme_requests` (`payer_id`,`day`,`doctor_id`,`procedure`);
--> statement-breakpoint
-- Backfill and triggers (docs/decisions/0024-kpi-aggregates-surgical-financial.md): a request takes its
-- surgery's day, doctor, payer and procedure from kpi_surgery_facts, which the triggers of migration
-- 0027 rebuild (delete, then insert) whenever the surgery changes; the request's row follows.
INSERT INTO kpi_opme_requests (request_id, surgery_id, day, doctor_id, payer_id, procedure)
  select r.id, f.surgery_id, f.day, f.doctor_id, f.payer_id, f.procedure
    from opme_requests r
    join kpi_surgery_facts f on f.surgery_id = r.surgery_id;
--> statement-breakpoint
CREATE TRIGGER `kpi_surgery_facts_opme_ai` AFTER INSERT ON `kpi_surgery_facts` BEGIN
  INSERT INTO kpi_opme_requests (request_id, surgery_id, day, doctor_id, payer_id, procedure)
  select r.id, NEW.surgery_id, NEW.day, NEW.doctor_id, NEW.payer_id, NEW.procedure
    from opme_requests r
   where r.surgery_id = NEW.surgery_id;
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_surgery_facts_opme_ad` AFTER DELETE ON `kpi_surgery_facts` BEGIN
  DELETE FROM kpi_opme_requests WHERE surgery_id = OLD.surgery_id;
END;
--> statement-breakpoint
CREATE TRIGGER `opme_requests_kpi_ai` AFTER INSERT ON `opme_requests` BEGIN
  INSERT INTO kpi_opme_requests (request_id, surgery_id, day, doctor_id, payer_id, procedure)
  select NEW.id, f.surgery_id, f.day, f.doctor_id, f.payer_id, f.procedure
    from kpi_surgery_facts f
   where f.surgery_id = NEW.surgery_id;
END;
--> statement-breakpoint
CREATE TRIGGER `opme_requests_kpi_ad` AFTER DELETE ON `opme_requests` BEGIN
  DELETE FROM kpi_opme_requests WHERE request_id = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER `opme_requests_kpi_au` AFTER UPDATE OF `id`, `surgery_id` ON `opme_requests` BEGIN
  DELETE FROM kpi_opme_requests WHERE request_id = OLD.id;
  INSERT INTO kpi_opme_requests (request_id, surgery_id, day, doctor_id, payer_id, procedure)
  select NEW.id, f.surgery_id, f.day, f.doctor_id, f.payer_id, f.procedure
    from kpi_surgery_facts f
   where f.surgery_id = NEW.surgery_id;
END;
