-- The honorários per doctor kept by triggers (db/schema/fees.ts, `feeDoctorMonths`): per doctor and
-- São Paulo month of the lines' service date, from kpi_clinic_offsets as the KPI rollups (migration
-- 0027), '' for lines without a date. Backfilled from the existing lines, then kept right in the same
-- transaction as every insert, update and delete of a line. Generated from one template, hence the
-- repetition.
CREATE TABLE `fee_doctor_months` (
	`doctor_id` integer NOT NULL,
	`month` text NOT NULL,
	`lines` integer NOT NULL,
	`surgeries` integer NOT NULL,
	`principal_cents` integer NOT NULL,
	`auxiliar_cents` integer NOT NULL,
	`anestesista_cents` integer NOT NULL,
	PRIMARY KEY(`doctor_id`, `month`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `fee_doctor_split_surgeries` (
	`doctor_id` integer NOT NULL,
	`surgery_id` integer NOT NULL,
	PRIMARY KEY(`doctor_id`, `surgery_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO fee_doctor_months (doctor_id, month, lines, surgeries, principal_cents, auxiliar_cents, anestesista_cents)
  SELECT l.doctor_id, l.month, count(*), count(DISTINCT l.surgery_id), sum(case when l.role = 'principal' then l.amount_cents else 0 end), sum(case when l.role = 'auxiliar' then l.amount_cents else 0 end), sum(case when l.role = 'anestesista' then l.amount_cents else 0 end)
    FROM (SELECT f.doctor_id, f.surgery_id, f.role, f.amount_cents, coalesce(substr(date((cast((f.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (f.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '') AS month FROM surgery_fee_lines f) l
   GROUP BY l.doctor_id, l.month;
--> statement-breakpoint
INSERT INTO fee_doctor_split_surgeries (doctor_id, surgery_id)
  SELECT l.doctor_id, l.surgery_id
    FROM (SELECT f.doctor_id, f.surgery_id, coalesce(substr(date((cast((f.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (f.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '') AS month FROM surgery_fee_lines f) l
   GROUP BY l.doctor_id, l.surgery_id
  HAVING count(DISTINCT l.month) > 1;
--> statement-breakpoint
-- One trigger for a new line, in a known order: counted under its own service date ('' when left
-- out), then given its surgery's date as migration 0020's trigger did, which the update trigger
-- below moves it by. Two AFTER INSERT triggers would run in an order SQLite does not promise.
DROP TRIGGER `surgery_fee_lines_service_date_ai`;
--> statement-breakpoint
CREATE TRIGGER fee_doctor_months_ai AFTER INSERT ON surgery_fee_lines BEGIN
  INSERT INTO fee_doctor_months (doctor_id, month, lines, surgeries, principal_cents, auxiliar_cents, anestesista_cents)
    VALUES (new.doctor_id, coalesce(substr(date((cast((new.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (new.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), ''), 1,
            (NOT EXISTS (SELECT 1 FROM surgery_fee_lines f WHERE f.surgery_id = new.surgery_id AND f.doctor_id = new.doctor_id AND f.id <> new.id
                           AND coalesce(substr(date((cast((f.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (f.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '') = coalesce(substr(date((cast((new.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (new.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), ''))),
            case when new.role = 'principal' then new.amount_cents else 0 end, case when new.role = 'auxiliar' then new.amount_cents else 0 end, case when new.role = 'anestesista' then new.amount_cents else 0 end)
    ON CONFLICT (doctor_id, month) DO UPDATE SET lines = lines + 1, surgeries = surgeries + excluded.surgeries,
      principal_cents = principal_cents + excluded.principal_cents, auxiliar_cents = auxiliar_cents + excluded.auxiliar_cents,
      anestesista_cents = anestesista_cents + excluded.anestesista_cents;
  DELETE FROM fee_doctor_split_surgeries WHERE doctor_id = new.doctor_id AND surgery_id = new.surgery_id;
  INSERT INTO fee_doctor_split_surgeries (doctor_id, surgery_id)
    SELECT new.doctor_id, new.surgery_id
     WHERE (SELECT count(DISTINCT coalesce(substr(date((cast((f.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (f.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '')) FROM surgery_fee_lines f WHERE f.surgery_id = new.surgery_id AND f.doctor_id = new.doctor_id) > 1;
  UPDATE surgery_fee_lines SET service_date = (SELECT scheduled_date FROM surgeries WHERE id = new.surgery_id) WHERE id = new.id AND new.service_date IS NULL;
END;
--> statement-breakpoint
CREATE TRIGGER fee_doctor_months_ad AFTER DELETE ON surgery_fee_lines BEGIN
  UPDATE fee_doctor_months
     SET lines = lines - 1,
         surgeries = surgeries - (NOT EXISTS (SELECT 1 FROM surgery_fee_lines f WHERE f.surgery_id = old.surgery_id AND f.doctor_id = old.doctor_id
                                               AND coalesce(substr(date((cast((f.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (f.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '') = coalesce(substr(date((cast((old.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (old.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), ''))),
         principal_cents = principal_cents - case when old.role = 'principal' then old.amount_cents else 0 end, auxiliar_cents = auxiliar_cents - case when old.role = 'auxiliar' then old.amount_cents else 0 end,
         anestesista_cents = anestesista_cents - case when old.role = 'anestesista' then old.amount_cents else 0 end
   WHERE doctor_id = old.doctor_id AND month = coalesce(substr(date((cast((old.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (old.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '');
  DELETE FROM fee_doctor_months WHERE doctor_id = old.doctor_id AND month = coalesce(substr(date((cast((old.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (old.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '') AND lines = 0;
  DELETE FROM fee_doctor_split_surgeries WHERE doctor_id = old.doctor_id AND surgery_id = old.surgery_id;
  INSERT INTO fee_doctor_split_surgeries (doctor_id, surgery_id)
    SELECT old.doctor_id, old.surgery_id
     WHERE (SELECT count(DISTINCT coalesce(substr(date((cast((f.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (f.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '')) FROM surgery_fee_lines f WHERE f.surgery_id = old.surgery_id AND f.doctor_id = old.doctor_id) > 1;
END;
--> statement-breakpoint
CREATE TRIGGER fee_doctor_months_au AFTER UPDATE OF surgery_id, doctor_id, role, amount_cents, service_date ON surgery_fee_lines BEGIN
  UPDATE fee_doctor_months
     SET lines = lines - 1,
         surgeries = surgeries - (NOT EXISTS (SELECT 1 FROM surgery_fee_lines f WHERE f.surgery_id = old.surgery_id AND f.doctor_id = old.doctor_id AND f.id <> old.id
                                               AND coalesce(substr(date((cast((f.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (f.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '') = coalesce(substr(date((cast((old.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (old.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), ''))),
         principal_cents = principal_cents - case when old.role = 'principal' then old.amount_cents else 0 end, auxiliar_cents = auxiliar_cents - case when old.role = 'auxiliar' then old.amount_cents else 0 end,
         anestesista_cents = anestesista_cents - case when old.role = 'anestesista' then old.amount_cents else 0 end
   WHERE doctor_id = old.doctor_id AND month = coalesce(substr(date((cast((old.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (old.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '');
  DELETE FROM fee_doctor_months WHERE doctor_id = old.doctor_id AND month = coalesce(substr(date((cast((old.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (old.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '') AND lines = 0;
  INSERT INTO fee_doctor_months (doctor_id, month, lines, surgeries, principal_cents, auxiliar_cents, anestesista_cents)
    VALUES (new.doctor_id, coalesce(substr(date((cast((new.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (new.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), ''), 1,
            (NOT EXISTS (SELECT 1 FROM surgery_fee_lines f WHERE f.surgery_id = new.surgery_id AND f.doctor_id = new.doctor_id AND f.id <> new.id
                           AND coalesce(substr(date((cast((f.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (f.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '') = coalesce(substr(date((cast((new.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (new.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), ''))),
            case when new.role = 'principal' then new.amount_cents else 0 end, case when new.role = 'auxiliar' then new.amount_cents else 0 end, case when new.role = 'anestesista' then new.amount_cents else 0 end)
    ON CONFLICT (doctor_id, month) DO UPDATE SET lines = lines + 1, surgeries = surgeries + excluded.surgeries,
      principal_cents = principal_cents + excluded.principal_cents, auxiliar_cents = auxiliar_cents + excluded.auxiliar_cents,
      anestesista_cents = anestesista_cents + excluded.anestesista_cents;
  DELETE FROM fee_doctor_split_surgeries WHERE doctor_id = old.doctor_id AND surgery_id = old.surgery_id;
  INSERT INTO fee_doctor_split_surgeries (doctor_id, surgery_id)
    SELECT old.doctor_id, old.surgery_id
     WHERE (SELECT count(DISTINCT coalesce(substr(date((cast((f.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (f.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '')) FROM surgery_fee_lines f WHERE f.surgery_id = old.surgery_id AND f.doctor_id = old.doctor_id) > 1;
  DELETE FROM fee_doctor_split_surgeries WHERE doctor_id = new.doctor_id AND surgery_id = new.surgery_id;
  INSERT INTO fee_doctor_split_surgeries (doctor_id, surgery_id)
    SELECT new.doctor_id, new.surgery_id
     WHERE (SELECT count(DISTINCT coalesce(substr(date((cast((f.service_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (f.service_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), 1, 7), '')) FROM surgery_fee_lines f WHERE f.surgery_id = new.surgery_id AND f.doctor_id = new.doctor_id) > 1;
END;
