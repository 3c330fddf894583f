-- Maintained aggregates of the KPI screens Operacionais and Métricas (docs/decisions/0023-kpi-aggregates.md):
-- São Paulo's UTC offsets, the backfill from the rows already there, and the triggers that keep every
-- aggregate in step with every write, in the same transaction. The São Paulo day of an instant X is
-- date((X + offset at X) / 1000.0, 'unixepoch'). Writers go through small views whose INSTEAD OF
-- triggers apply one signed change ("delta") to every bucket it touches.
INSERT INTO `kpi_clinic_offsets` (`from_ms`, `offset_ms`) VALUES
(-8640000000000000, -11188000),
(-1767214412000, -10800000),
(-1206957600000, -7200000),
(-1191362400000, -10800000),
(-1175374800000, -7200000),
(-1159826400000, -10800000),
(-633819600000, -7200000),
(-622069200000, -10800000),
(-602283600000, -7200000),
(-591832800000, -10800000),
(-570747600000, -7200000),
(-560210400000, -10800000),
(-539125200000, -7200000),
(-531352800000, -10800000),
(-195426000000, -7200000),
(-184197600000, -10800000),
(-155163600000, -7200000),
(-150069600000, -10800000),
(-128898000000, -7200000),
(-121125600000, -10800000),
(-99954000000, -7200000),
(-89589600000, -10800000),
(-68418000000, -7200000),
(-57967200000, -10800000),
(499748400000, -7200000),
(511236000000, -10800000),
(530593200000, -7200000),
(540266400000, -10800000),
(562129200000, -7200000),
(571197600000, -10800000),
(592974000000, -7200000),
(602042400000, -10800000),
(624423600000, -7200000),
(634701600000, -10800000),
(656478000000, -7200000),
(666756000000, -10800000),
(687927600000, -7200000),
(697600800000, -10800000),
(719982000000, -7200000),
(728445600000, -10800000),
(750826800000, -7200000),
(761709600000, -10800000),
(782276400000, -7200000),
(793159200000, -10800000),
(813726000000, -7200000),
(824004000000, -10800000),
(844570800000, -7200000),
(856058400000, -10800000),
(876106800000, -7200000),
(888717600000, -10800000),
(908074800000, -7200000),
(919562400000, -10800000),
(938919600000, -7200000),
(951616800000, -10800000),
(970974000000, -7200000),
(982461600000, -10800000),
(1003028400000, -7200000),
(1013911200000, -10800000),
(1036292400000, -7200000),
(1045360800000, -10800000),
(1066532400000, -7200000),
(1076810400000, -10800000),
(1099364400000, -7200000),
(1108864800000, -10800000),
(1129431600000, -7200000),
(1140314400000, -10800000),
(1162695600000, -7200000),
(1172368800000, -10800000),
(1192330800000, -7200000),
(1203213600000, -10800000),
(1224385200000, -7200000),
(1234663200000, -10800000),
(1255834800000, -7200000),
(1266717600000, -10800000),
(1287284400000, -7200000),
(1298167200000, -10800000),
(1318734000000, -7200000),
(1330221600000, -10800000),
(1350788400000, -7200000),
(1361066400000, -10800000),
(1382238000000, -7200000),
(1392516000000, -10800000),
(1413687600000, -7200000),
(1424570400000, -10800000),
(1445137200000, -7200000),
(1456020000000, -10800000),
(1476586800000, -7200000),
(1487469600000, -10800000),
(1508036400000, -7200000),
(1518919200000, -10800000),
(1541300400000, -7200000),
(1550368800000, -10800000);
--> statement-breakpoint
-- Appointments per doctor and day (the other grains are summed from these rows below).
INSERT INTO `kpi_appointment_buckets` (`doctor_id`, `grain`, `bucket`, `total`, `cancelled`, `completed`, `open`, `lead_n`, `lead_ms`, `converted`)
SELECT `doctor_id`, 'd', `day`, count(*), sum(`status` = 'cancelled'), sum(`status` = 'completed'), sum(`status` IN ('scheduled', 'confirmed')),
       sum(`has_lead`), sum(`lead`), sum(`conv`)
  FROM (SELECT a.`doctor_id`, date((a.`start_time` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= a.`start_time` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AS `day`, a.`status`,
               (a.`status` <> 'cancelled' AND a.`created_at` <= a.`start_time`) AS `has_lead`,
               CASE WHEN a.`status` <> 'cancelled' AND a.`created_at` <= a.`start_time` THEN a.`start_time` - a.`created_at` ELSE 0 END AS `lead`,
               (a.`status` = 'completed' AND EXISTS (SELECT 1 FROM `surgeries` s WHERE s.`patient_id` = a.`patient_id`
                  AND s.`created_at` >= a.`start_time` AND s.`created_at` < a.`start_time` + 7776000000)) AS `conv`
          FROM `appointments` a)
 GROUP BY `doctor_id`, `day`;
--> statement-breakpoint
INSERT INTO `kpi_appointment_buckets` (`doctor_id`, `grain`, `bucket`, `total`, `cancelled`, `completed`, `open`, `lead_n`, `lead_ms`, `converted`)
SELECT 0, 'd', `bucket`, sum(`total`), sum(`cancelled`), sum(`completed`), sum(`open`), sum(`lead_n`), sum(`lead_ms`), sum(`converted`)
  FROM `kpi_appointment_buckets` WHERE `grain` = 'd' GROUP BY `bucket`;
--> statement-breakpoint
INSERT INTO `kpi_appointment_buckets` (`doctor_id`, `grain`, `bucket`, `total`, `cancelled`, `completed`, `open`, `lead_n`, `lead_ms`, `converted`)
SELECT `doctor_id`, 'm', substr(`bucket`, 1, 7), sum(`total`), sum(`cancelled`), sum(`completed`), sum(`open`), sum(`lead_n`), sum(`lead_ms`), sum(`converted`)
  FROM `kpi_appointment_buckets` WHERE `grain` = 'd' GROUP BY `doctor_id`, substr(`bucket`, 1, 7);
--> statement-breakpoint
INSERT INTO `kpi_patient_days` (`patient_id`, `day`, `n`)
SELECT `patient_id`, `day`, count(*)
  FROM (SELECT `patient_id`, date((`start_time` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= `start_time` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AS `day` FROM `appointments` WHERE `status` <> 'cancelled')
 GROUP BY `patient_id`, `day`;
--> statement-breakpoint
CREATE TEMP TABLE `kpi_points_backfill` AS
SELECT `day`, coalesce(lag(`day`) OVER (PARTITION BY `patient_id` ORDER BY `day`), '') AS `prev` FROM `kpi_patient_days`;
--> statement-breakpoint
INSERT INTO `kpi_active_points` (`day_grain`, `day_bucket`, `prev_grain`, `prev_bucket`, `n`)
SELECT 'd', `day`, 'd', `prev`, count(*) FROM `kpi_points_backfill` GROUP BY `day`, `prev`
UNION ALL SELECT 'd', `day`, 'm', substr(`prev`, 1, 7), count(*) FROM `kpi_points_backfill` GROUP BY `day`, substr(`prev`, 1, 7)
UNION ALL SELECT 'm', substr(`day`, 1, 7), 'd', `prev`, count(*) FROM `kpi_points_backfill` GROUP BY substr(`day`, 1, 7), `prev`
UNION ALL SELECT 'm', substr(`day`, 1, 7), 'm', substr(`prev`, 1, 7), count(*) FROM `kpi_points_backfill` GROUP BY substr(`day`, 1, 7), substr(`prev`, 1, 7);
--> statement-breakpoint
DROP TABLE `kpi_points_backfill`;
--> statement-breakpoint
INSERT INTO `kpi_new_patients` (`grain`, `bucket`, `insurance`, `n`)
SELECT 'd', `day`, `insurance`, count(*)
  FROM (SELECT date((`created_at` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= `created_at` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AS `day`, coalesce(`insurance`, '') AS `insurance` FROM `patients`)
 GROUP BY `day`, `insurance`;
--> statement-breakpoint
INSERT INTO `kpi_new_patients` (`grain`, `bucket`, `insurance`, `n`)
SELECT 'm', substr(`bucket`, 1, 7), `insurance`, sum(`n`) FROM `kpi_new_patients` WHERE `grain` = 'd' GROUP BY substr(`bucket`, 1, 7), `insurance`;
--> statement-breakpoint
INSERT INTO `kpi_new_patient_referrers` (`grain`, `bucket`, `referrer_id`, `n`)
SELECT 'd', `day`, `referrer_id`, count(*)
  FROM (SELECT date((p.`created_at` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= p.`created_at` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AS `day`, pr.`referrer_id` FROM `patient_referrals` pr JOIN `patients` p ON p.`id` = pr.`patient_id`)
 GROUP BY `day`, `referrer_id`;
--> statement-breakpoint
INSERT INTO `kpi_new_patient_referrers` (`grain`, `bucket`, `referrer_id`, `n`)
SELECT 'm', substr(`bucket`, 1, 7), `referrer_id`, sum(`n`) FROM `kpi_new_patient_referrers` WHERE `grain` = 'd' GROUP BY substr(`bucket`, 1, 7), `referrer_id`;
--> statement-breakpoint
INSERT INTO `kpi_outbound_messages` (`grain`, `bucket`, `status`, `n`)
SELECT 'd', `day`, `status`, count(*)
  FROM (SELECT date((`created_at` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= `created_at` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AS `day`, `status` FROM `messages` WHERE `direction` = 'outbound')
 GROUP BY `day`, `status`;
--> statement-breakpoint
INSERT INTO `kpi_outbound_messages` (`grain`, `bucket`, `status`, `n`)
SELECT 'm', substr(`bucket`, 1, 7), `status`, sum(`n`) FROM `kpi_outbound_messages` WHERE `grain` = 'd' GROUP BY substr(`bucket`, 1, 7), `status`;
--> statement-breakpoint
-- Active points: one signed change of the point (day, previous active day) on both grains of both axes.
CREATE VIEW `kpi_active_point_delta` AS SELECT '' AS `day`, '' AS `prev`, 0 AS `sign` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `kpi_active_point_delta_apply` INSTEAD OF INSERT ON `kpi_active_point_delta` BEGIN
  INSERT INTO `kpi_active_points` (`day_grain`, `day_bucket`, `prev_grain`, `prev_bucket`, `n`)
  SELECT d.`grain`, substr(NEW.`day`, 1, d.`len`), p.`grain`, substr(coalesce(NEW.`prev`, ''), 1, p.`len`), NEW.`sign`
    FROM (SELECT 'd' AS `grain`, 10 AS `len` UNION ALL SELECT 'm', 7) d, (SELECT 'd' AS `grain`, 10 AS `len` UNION ALL SELECT 'm', 7) p
   WHERE true
  ON CONFLICT (`day_grain`, `day_bucket`, `prev_grain`, `prev_bucket`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
-- A patient's new active day: it becomes the previous day of the patient's next active day.
CREATE TRIGGER `kpi_patient_days_ai` AFTER INSERT ON `kpi_patient_days` BEGIN
  INSERT INTO `kpi_active_point_delta` (`day`, `prev`, `sign`)
  SELECT x.`next`, x.`prev`, -1 FROM (SELECT
      (SELECT max(`day`) FROM `kpi_patient_days` WHERE `patient_id` = NEW.`patient_id` AND `day` < NEW.`day`) AS `prev`,
      (SELECT min(`day`) FROM `kpi_patient_days` WHERE `patient_id` = NEW.`patient_id` AND `day` > NEW.`day`) AS `next`) x
   WHERE x.`next` IS NOT NULL
  UNION ALL
  SELECT x.`next`, NEW.`day`, 1 FROM (SELECT
      (SELECT min(`day`) FROM `kpi_patient_days` WHERE `patient_id` = NEW.`patient_id` AND `day` > NEW.`day`) AS `next`) x
   WHERE x.`next` IS NOT NULL
  UNION ALL
  SELECT NEW.`day`, (SELECT max(`day`) FROM `kpi_patient_days` WHERE `patient_id` = NEW.`patient_id` AND `day` < NEW.`day`), 1;
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_patient_days_ad` AFTER DELETE ON `kpi_patient_days` BEGIN
  INSERT INTO `kpi_active_point_delta` (`day`, `prev`, `sign`)
  SELECT OLD.`day`, (SELECT max(`day`) FROM `kpi_patient_days` WHERE `patient_id` = OLD.`patient_id` AND `day` < OLD.`day`), -1
  UNION ALL
  SELECT x.`next`, OLD.`day`, -1 FROM (SELECT
      (SELECT min(`day`) FROM `kpi_patient_days` WHERE `patient_id` = OLD.`patient_id` AND `day` > OLD.`day`) AS `next`) x
   WHERE x.`next` IS NOT NULL
  UNION ALL
  SELECT x.`next`, x.`prev`, 1 FROM (SELECT
      (SELECT max(`day`) FROM `kpi_patient_days` WHERE `patient_id` = OLD.`patient_id` AND `day` < OLD.`day`) AS `prev`,
      (SELECT min(`day`) FROM `kpi_patient_days` WHERE `patient_id` = OLD.`patient_id` AND `day` > OLD.`day`) AS `next`) x
   WHERE x.`next` IS NOT NULL;
END;
--> statement-breakpoint
-- One appointment added (sign 1) or taken away (sign -1): its doctor's and everyone's day and month, and its patient's day.
CREATE VIEW `kpi_appointment_delta` AS
SELECT 0 AS `doctor_id`, 0 AS `patient_id`, 0 AS `start_time`, '' AS `status`, 0 AS `created_at`, 0 AS `sign` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `kpi_appointment_delta_apply` INSTEAD OF INSERT ON `kpi_appointment_delta` BEGIN
  INSERT INTO `kpi_appointment_buckets` (`doctor_id`, `grain`, `bucket`, `total`, `cancelled`, `completed`, `open`, `lead_n`, `lead_ms`, `converted`)
  SELECT dr.`id`, g.`grain`, substr(x.`day`, 1, g.`len`), NEW.`sign`,
         NEW.`sign` * (NEW.`status` = 'cancelled'), NEW.`sign` * (NEW.`status` = 'completed'), NEW.`sign` * (NEW.`status` IN ('scheduled', 'confirmed')),
         NEW.`sign` * (NEW.`status` <> 'cancelled' AND NEW.`created_at` <= NEW.`start_time`),
         CASE WHEN NEW.`status` <> 'cancelled' AND NEW.`created_at` <= NEW.`start_time` THEN NEW.`sign` * (NEW.`start_time` - NEW.`created_at`) ELSE 0 END,
         NEW.`sign` * (NEW.`status` = 'completed' AND EXISTS (SELECT 1 FROM `surgeries` s WHERE s.`patient_id` = NEW.`patient_id`
            AND s.`created_at` >= NEW.`start_time` AND s.`created_at` < NEW.`start_time` + 7776000000))
    FROM (SELECT date((NEW.`start_time` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= NEW.`start_time` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AS `day`) x,
         (SELECT 'd' AS `grain`, 10 AS `len` UNION ALL SELECT 'm', 7) g,
         (SELECT NEW.`doctor_id` AS `id` UNION ALL SELECT 0) dr
   WHERE true
  ON CONFLICT (`doctor_id`, `grain`, `bucket`) DO UPDATE SET
    `total` = `total` + excluded.`total`, `cancelled` = `cancelled` + excluded.`cancelled`,
    `completed` = `completed` + excluded.`completed`, `open` = `open` + excluded.`open`,
    `lead_n` = `lead_n` + excluded.`lead_n`, `lead_ms` = `lead_ms` + excluded.`lead_ms`,
    `converted` = `converted` + excluded.`converted`;
  INSERT INTO `kpi_patient_days` (`patient_id`, `day`, `n`)
  SELECT NEW.`patient_id`, date((NEW.`start_time` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= NEW.`start_time` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch'), NEW.`sign` WHERE NEW.`status` <> 'cancelled'
  ON CONFLICT (`patient_id`, `day`) DO UPDATE SET `n` = `n` + excluded.`n`;
  DELETE FROM `kpi_patient_days` WHERE NEW.`status` <> 'cancelled' AND `patient_id` = NEW.`patient_id` AND `day` = date((NEW.`start_time` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= NEW.`start_time` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AND `n` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_appointments_ai` AFTER INSERT ON `appointments` BEGIN
  INSERT INTO `kpi_appointment_delta` VALUES (NEW.`doctor_id`, NEW.`patient_id`, NEW.`start_time`, NEW.`status`, NEW.`created_at`, 1);
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_appointments_ad` AFTER DELETE ON `appointments` BEGIN
  INSERT INTO `kpi_appointment_delta` VALUES (OLD.`doctor_id`, OLD.`patient_id`, OLD.`start_time`, OLD.`status`, OLD.`created_at`, -1);
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_appointments_au` AFTER UPDATE OF `doctor_id`, `patient_id`, `start_time`, `status`, `created_at` ON `appointments`
 WHEN OLD.`doctor_id` IS NOT NEW.`doctor_id` OR OLD.`patient_id` IS NOT NEW.`patient_id` OR OLD.`start_time` IS NOT NEW.`start_time` OR OLD.`status` IS NOT NEW.`status` OR OLD.`created_at` IS NOT NEW.`created_at` BEGIN
  INSERT INTO `kpi_appointment_delta` VALUES (OLD.`doctor_id`, OLD.`patient_id`, OLD.`start_time`, OLD.`status`, OLD.`created_at`, -1);
  INSERT INTO `kpi_appointment_delta` VALUES (NEW.`doctor_id`, NEW.`patient_id`, NEW.`start_time`, NEW.`status`, NEW.`created_at`, 1);
END;
--> statement-breakpoint
-- A completed appointment becoming converted (sign 1) or no longer converted (sign -1) after a surgery changed.
CREATE VIEW `kpi_conversion_delta` AS SELECT 0 AS `doctor_id`, 0 AS `start_time`, 0 AS `sign` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `kpi_conversion_delta_apply` INSTEAD OF INSERT ON `kpi_conversion_delta` BEGIN
  UPDATE `kpi_appointment_buckets` SET `converted` = `converted` + NEW.`sign`
   WHERE `doctor_id` IN (NEW.`doctor_id`, 0)
     AND ((`grain` = 'd' AND `bucket` = date((NEW.`start_time` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= NEW.`start_time` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch')) OR (`grain` = 'm' AND `bucket` = substr(date((NEW.`start_time` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= NEW.`start_time` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch'), 1, 7)));
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_surgeries_ai` AFTER INSERT ON `surgeries` BEGIN
  INSERT INTO `kpi_conversion_delta` (`doctor_id`, `start_time`, `sign`)
  SELECT a.`doctor_id`, a.`start_time`, 1 FROM `appointments` a
   WHERE a.`patient_id` = NEW.`patient_id` AND a.`start_time` <= NEW.`created_at` AND a.`start_time` > NEW.`created_at` - 7776000000
     AND a.`status` = 'completed'
     AND NOT EXISTS (SELECT 1 FROM `surgeries` s WHERE s.`patient_id` = a.`patient_id` AND s.`id` <> NEW.`id`
                        AND s.`created_at` >= a.`start_time` AND s.`created_at` < a.`start_time` + 7776000000);
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_surgeries_ad` AFTER DELETE ON `surgeries` BEGIN
  INSERT INTO `kpi_conversion_delta` (`doctor_id`, `start_time`, `sign`)
  SELECT a.`doctor_id`, a.`start_time`, -1 FROM `appointments` a
   WHERE a.`patient_id` = OLD.`patient_id` AND a.`start_time` <= OLD.`created_at` AND a.`start_time` > OLD.`created_at` - 7776000000
     AND a.`status` = 'completed'
     AND NOT EXISTS (SELECT 1 FROM `surgeries` s WHERE s.`patient_id` = a.`patient_id`
                        AND s.`created_at` >= a.`start_time` AND s.`created_at` < a.`start_time` + 7776000000);
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_surgeries_au` AFTER UPDATE OF `patient_id`, `created_at` ON `surgeries`
 WHEN OLD.`patient_id` IS NOT NEW.`patient_id` OR OLD.`created_at` IS NOT NEW.`created_at` BEGIN
  INSERT INTO `kpi_conversion_delta` (`doctor_id`, `start_time`, `sign`)
  SELECT a.`doctor_id`, a.`start_time`, -1 FROM `appointments` a
   WHERE a.`patient_id` = OLD.`patient_id` AND a.`start_time` <= OLD.`created_at` AND a.`start_time` > OLD.`created_at` - 7776000000
     AND a.`status` = 'completed'
     AND NOT EXISTS (SELECT 1 FROM `surgeries` s WHERE s.`patient_id` = a.`patient_id`
                        AND s.`created_at` >= a.`start_time` AND s.`created_at` < a.`start_time` + 7776000000);
  INSERT INTO `kpi_conversion_delta` (`doctor_id`, `start_time`, `sign`)
  SELECT a.`doctor_id`, a.`start_time`, 1 FROM `appointments` a
   WHERE a.`patient_id` = NEW.`patient_id` AND a.`start_time` <= NEW.`created_at` AND a.`start_time` > NEW.`created_at` - 7776000000
     AND a.`status` = 'completed'
     AND NOT (a.`patient_id` = OLD.`patient_id` AND OLD.`created_at` >= a.`start_time` AND OLD.`created_at` < a.`start_time` + 7776000000)
     AND NOT EXISTS (SELECT 1 FROM `surgeries` s WHERE s.`patient_id` = a.`patient_id` AND s.`id` <> NEW.`id`
                        AND s.`created_at` >= a.`start_time` AND s.`created_at` < a.`start_time` + 7776000000);
END;
--> statement-breakpoint
-- Patients registered, by insurer text.
CREATE VIEW `kpi_new_patient_delta` AS SELECT 0 AS `created_at`, '' AS `insurance`, 0 AS `sign` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `kpi_new_patient_delta_apply` INSTEAD OF INSERT ON `kpi_new_patient_delta` BEGIN
  INSERT INTO `kpi_new_patients` (`grain`, `bucket`, `insurance`, `n`)
  SELECT g.`grain`, substr(x.`day`, 1, g.`len`), coalesce(NEW.`insurance`, ''), NEW.`sign`
    FROM (SELECT date((NEW.`created_at` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= NEW.`created_at` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AS `day`) x, (SELECT 'd' AS `grain`, 10 AS `len` UNION ALL SELECT 'm', 7) g
   WHERE true
  ON CONFLICT (`grain`, `bucket`, `insurance`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
-- Patients registered, by referrer (nothing when the patient row is gone: its BEFORE DELETE trigger took it away).
CREATE VIEW `kpi_referral_delta` AS SELECT 0 AS `patient_id`, 0 AS `referrer_id`, 0 AS `sign` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `kpi_referral_delta_apply` INSTEAD OF INSERT ON `kpi_referral_delta` BEGIN
  INSERT INTO `kpi_new_patient_referrers` (`grain`, `bucket`, `referrer_id`, `n`)
  SELECT g.`grain`, substr(x.`day`, 1, g.`len`), NEW.`referrer_id`, NEW.`sign`
    FROM (SELECT date((p.`created_at` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= p.`created_at` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AS `day` FROM `patients` p WHERE p.`id` = NEW.`patient_id`) x,
         (SELECT 'd' AS `grain`, 10 AS `len` UNION ALL SELECT 'm', 7) g
   WHERE true
  ON CONFLICT (`grain`, `bucket`, `referrer_id`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_patients_ai` AFTER INSERT ON `patients` BEGIN
  INSERT INTO `kpi_new_patient_delta` VALUES (NEW.`created_at`, NEW.`insurance`, 1);
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_patients_bd` BEFORE DELETE ON `patients` BEGIN
  INSERT INTO `kpi_referral_delta` SELECT pr.`patient_id`, pr.`referrer_id`, -1 FROM `patient_referrals` pr WHERE pr.`patient_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_patients_ad` AFTER DELETE ON `patients` BEGIN
  INSERT INTO `kpi_new_patient_delta` VALUES (OLD.`created_at`, OLD.`insurance`, -1);
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_patients_au` AFTER UPDATE OF `created_at`, `insurance` ON `patients`
 WHEN OLD.`created_at` IS NOT NEW.`created_at` OR OLD.`insurance` IS NOT NEW.`insurance` BEGIN
  INSERT INTO `kpi_new_patient_delta` VALUES (OLD.`created_at`, OLD.`insurance`, -1);
  INSERT INTO `kpi_new_patient_delta` VALUES (NEW.`created_at`, NEW.`insurance`, 1);
END;
--> statement-breakpoint
-- The referral bucket follows the registration day (the UPDATE has happened: move from OLD's day to NEW's).
CREATE TRIGGER `kpi_patients_created_au` AFTER UPDATE OF `created_at` ON `patients`
 WHEN OLD.`created_at` IS NOT NEW.`created_at` BEGIN
  INSERT INTO `kpi_new_patient_referrers` (`grain`, `bucket`, `referrer_id`, `n`)
  SELECT g.`grain`, substr(x.`day`, 1, g.`len`), pr.`referrer_id`, x.`sign`
    FROM `patient_referrals` pr,
         (SELECT date((OLD.`created_at` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= OLD.`created_at` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AS `day`, -1 AS `sign` UNION ALL SELECT date((NEW.`created_at` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= NEW.`created_at` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch'), 1) x,
         (SELECT 'd' AS `grain`, 10 AS `len` UNION ALL SELECT 'm', 7) g
   WHERE pr.`patient_id` = NEW.`id`
  ON CONFLICT (`grain`, `bucket`, `referrer_id`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_patient_referrals_ai` AFTER INSERT ON `patient_referrals` BEGIN
  INSERT INTO `kpi_referral_delta` VALUES (NEW.`patient_id`, NEW.`referrer_id`, 1);
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_patient_referrals_ad` AFTER DELETE ON `patient_referrals` BEGIN
  INSERT INTO `kpi_referral_delta` VALUES (OLD.`patient_id`, OLD.`referrer_id`, -1);
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_patient_referrals_au` AFTER UPDATE OF `patient_id`, `referrer_id` ON `patient_referrals`
 WHEN OLD.`patient_id` IS NOT NEW.`patient_id` OR OLD.`referrer_id` IS NOT NEW.`referrer_id` BEGIN
  INSERT INTO `kpi_referral_delta` VALUES (OLD.`patient_id`, OLD.`referrer_id`, -1);
  INSERT INTO `kpi_referral_delta` VALUES (NEW.`patient_id`, NEW.`referrer_id`, 1);
END;
--> statement-breakpoint
-- Outbound messages by status.
CREATE VIEW `kpi_message_delta` AS SELECT 0 AS `created_at`, '' AS `status`, '' AS `direction`, 0 AS `sign` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `kpi_message_delta_apply` INSTEAD OF INSERT ON `kpi_message_delta` WHEN NEW.`direction` = 'outbound' BEGIN
  INSERT INTO `kpi_outbound_messages` (`grain`, `bucket`, `status`, `n`)
  SELECT g.`grain`, substr(x.`day`, 1, g.`len`), NEW.`status`, NEW.`sign`
    FROM (SELECT date((NEW.`created_at` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= NEW.`created_at` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AS `day`) x, (SELECT 'd' AS `grain`, 10 AS `len` UNION ALL SELECT 'm', 7) g
   WHERE true
  ON CONFLICT (`grain`, `bucket`, `status`) DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_messages_ai` AFTER INSERT ON `messages` BEGIN
  INSERT INTO `kpi_message_delta` VALUES (NEW.`created_at`, NEW.`status`, NEW.`direction`, 1);
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_messages_ad` AFTER DELETE ON `messages` BEGIN
  INSERT INTO `kpi_message_delta` VALUES (OLD.`created_at`, OLD.`status`, OLD.`direction`, -1);
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_messages_au` AFTER UPDATE OF `created_at`, `status`, `direction` ON `messages`
 WHEN OLD.`created_at` IS NOT NEW.`created_at` OR OLD.`status` IS NOT NEW.`status` OR OLD.`direction` IS NOT NEW.`direction` BEGIN
  INSERT INTO `kpi_message_delta` VALUES (OLD.`created_at`, OLD.`status`, OLD.`direction`, -1);
  INSERT INTO `kpi_message_delta` VALUES (NEW.`created_at`, NEW.`status`, NEW.`direction`, 1);
END;
