-- /referrers at a practice's 20 years: each referrer's patients, their surgeries, and the surgeries
-- paid per São Paulo day, kept by triggers in the same transaction as any write to the referrals or
-- to a surgery's patient or payment (docs/decisions/0008-performance-budget-and-server.md, 'The
-- referrers'). The list joined every referred patient to their surgeries on every view: 110 ms for
-- a page whose referrers had sent 70 000 patients. Writers go through two views whose INSTEAD OF
-- triggers apply one signed change, as the KPI aggregates do (migration 0024).
CREATE TABLE `referrer_counts` (
	`referrer_id` integer PRIMARY KEY NOT NULL,
	`patients` integer NOT NULL,
	`surgeries` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `referrer_paid_days` (
	`referrer_id` integer NOT NULL,
	`day` text NOT NULL,
	`n` integer NOT NULL,
	`cents` integer NOT NULL,
	PRIMARY KEY(`referrer_id`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
-- A paid surgery as the figures count it: its patient, the São Paulo day of its payment, its billed amount.
CREATE VIEW `referrer_paid_surgeries` AS
SELECT `patient_id`, date((`paid_at` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= `paid_at` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AS `day`, coalesce(`billed_amount_cents`, 0) AS `cents`
  FROM `surgeries` WHERE `receivable_status` = 'pago' AND `paid_at` IS NOT NULL;
--> statement-breakpoint
INSERT INTO `referrer_counts` (`referrer_id`, `patients`, `surgeries`)
SELECT pr.`referrer_id`, count(*), sum((SELECT count(*) FROM `surgeries` s WHERE s.`patient_id` = pr.`patient_id`))
  FROM `patient_referrals` pr GROUP BY pr.`referrer_id`;
--> statement-breakpoint
INSERT INTO `referrer_paid_days` (`referrer_id`, `day`, `n`, `cents`)
SELECT pr.`referrer_id`, p.`day`, count(*), sum(p.`cents`)
  FROM `referrer_paid_surgeries` p JOIN `patient_referrals` pr ON pr.`patient_id` = p.`patient_id`
 GROUP BY pr.`referrer_id`, p.`day`;
--> statement-breakpoint
-- A patient referred (sign 1) or no longer (-1): the patient, their surgeries, their paid surgeries.
CREATE VIEW `referrer_referral_delta` AS SELECT 0 AS `patient_id`, 0 AS `referrer_id`, 0 AS `sign` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `referrer_referral_delta_apply` INSTEAD OF INSERT ON `referrer_referral_delta` BEGIN
  INSERT INTO `referrer_counts` (`referrer_id`, `patients`, `surgeries`)
  SELECT NEW.`referrer_id`, NEW.`sign`, NEW.`sign` * count(*) FROM `surgeries` WHERE `patient_id` = NEW.`patient_id`
  ON CONFLICT (`referrer_id`) DO UPDATE SET `patients` = `patients` + excluded.`patients`, `surgeries` = `surgeries` + excluded.`surgeries`;
  DELETE FROM `referrer_counts` WHERE `referrer_id` = NEW.`referrer_id` AND `patients` = 0;
  INSERT INTO `referrer_paid_days` (`referrer_id`, `day`, `n`, `cents`)
  SELECT NEW.`referrer_id`, `day`, NEW.`sign` * count(*), NEW.`sign` * sum(`cents`) FROM `referrer_paid_surgeries` WHERE `patient_id` = NEW.`patient_id` GROUP BY `day`
  ON CONFLICT (`referrer_id`, `day`) DO UPDATE SET `n` = `n` + excluded.`n`, `cents` = `cents` + excluded.`cents`;
  DELETE FROM `referrer_paid_days`
   WHERE `referrer_id` = NEW.`referrer_id` AND `n` = 0 AND `day` IN (SELECT `day` FROM `referrer_paid_surgeries` WHERE `patient_id` = NEW.`patient_id`);
END;
--> statement-breakpoint
-- A surgery counted (sign 1) or no longer (-1) for its patient's referrer, if the patient has one.
CREATE VIEW `referrer_surgery_delta` AS SELECT 0 AS `patient_id`, '' AS `receivable_status`, 0 AS `paid_at`, 0 AS `cents`, 0 AS `sign` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `referrer_surgery_delta_apply` INSTEAD OF INSERT ON `referrer_surgery_delta`
 WHEN EXISTS (SELECT 1 FROM `patient_referrals` WHERE `patient_id` = NEW.`patient_id`) BEGIN
  UPDATE `referrer_counts` SET `surgeries` = `surgeries` + NEW.`sign`
   WHERE `referrer_id` = (SELECT `referrer_id` FROM `patient_referrals` WHERE `patient_id` = NEW.`patient_id`);
  INSERT INTO `referrer_paid_days` (`referrer_id`, `day`, `n`, `cents`)
  SELECT pr.`referrer_id`, date((NEW.`paid_at` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= NEW.`paid_at` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch'), NEW.`sign`, NEW.`sign` * coalesce(NEW.`cents`, 0)
    FROM `patient_referrals` pr
   WHERE pr.`patient_id` = NEW.`patient_id` AND NEW.`receivable_status` = 'pago' AND NEW.`paid_at` IS NOT NULL
  ON CONFLICT (`referrer_id`, `day`) DO UPDATE SET `n` = `n` + excluded.`n`, `cents` = `cents` + excluded.`cents`;
  DELETE FROM `referrer_paid_days`
   WHERE `referrer_id` = (SELECT `referrer_id` FROM `patient_referrals` WHERE `patient_id` = NEW.`patient_id`)
     AND `day` = date((NEW.`paid_at` + (SELECT o.`offset_ms` FROM `kpi_clinic_offsets` o WHERE o.`from_ms` <= NEW.`paid_at` ORDER BY o.`from_ms` DESC LIMIT 1)) / 1000.0, 'unixepoch') AND `n` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `referrer_patient_referrals_ai` AFTER INSERT ON `patient_referrals` BEGIN
  INSERT INTO `referrer_referral_delta` VALUES (NEW.`patient_id`, NEW.`referrer_id`, 1);
END;
--> statement-breakpoint
CREATE TRIGGER `referrer_patient_referrals_ad` AFTER DELETE ON `patient_referrals` BEGIN
  INSERT INTO `referrer_referral_delta` VALUES (OLD.`patient_id`, OLD.`referrer_id`, -1);
END;
--> statement-breakpoint
CREATE TRIGGER `referrer_patient_referrals_au` AFTER UPDATE OF `patient_id`, `referrer_id` ON `patient_referrals`
 WHEN OLD.`patient_id` IS NOT NEW.`patient_id` OR OLD.`referrer_id` IS NOT NEW.`referrer_id` BEGIN
  INSERT INTO `referrer_referral_delta` VALUES (OLD.`patient_id`, OLD.`referrer_id`, -1);
  INSERT INTO `referrer_referral_delta` VALUES (NEW.`patient_id`, NEW.`referrer_id`, 1);
END;
--> statement-breakpoint
CREATE TRIGGER `referrer_surgeries_ai` AFTER INSERT ON `surgeries` BEGIN
  INSERT INTO `referrer_surgery_delta` VALUES (NEW.`patient_id`, NEW.`receivable_status`, NEW.`paid_at`, NEW.`billed_amount_cents`, 1);
END;
--> statement-breakpoint
CREATE TRIGGER `referrer_surgeries_ad` AFTER DELETE ON `surgeries` BEGIN
  INSERT INTO `referrer_surgery_delta` VALUES (OLD.`patient_id`, OLD.`receivable_status`, OLD.`paid_at`, OLD.`billed_amount_cents`, -1);
END;
--> statement-breakpoint
CREATE TRIGGER `referrer_surgeries_au` AFTER UPDATE OF `patient_id`, `receivable_status`, `paid_at`, `billed_amount_cents` ON `surgeries`
 WHEN OLD.`patient_id` IS NOT NEW.`patient_id` OR OLD.`receivable_status` IS NOT NEW.`receivable_status`
   OR OLD.`paid_at` IS NOT NEW.`paid_at` OR OLD.`billed_amount_cents` IS NOT NEW.`billed_amount_cents` BEGIN
  INSERT INTO `referrer_surgery_delta` VALUES (OLD.`patient_id`, OLD.`receivable_status`, OLD.`paid_at`, OLD.`billed_amount_cents`, -1);
  INSERT INTO `referrer_surgery_delta` VALUES (NEW.`patient_id`, NEW.`receivable_status`, NEW.`paid_at`, NEW.`billed_amount_cents`, 1);
END;
--> statement-breakpoint
-- A referrer removed: its referrals went first (ON DELETE CASCADE, whose triggers emptied its rows); nothing may stay.
CREATE TRIGGER `referrer_figures_referrers_ad` AFTER DELETE ON `referrers` BEGIN
  DELETE FROM `referrer_counts` WHERE `referrer_id` = OLD.`id`;
  DELETE FROM `referrer_paid_days` WHERE `referrer_id` = OLD.`id`;
END;
