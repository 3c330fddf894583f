-- The history of WhatsApp consent (whatsapp_consents): what patients already consented to is
-- recorded once, and every later change of patients.whatsapp_opt_in (the patient form) is logged
-- with source 'cadastro'. Writes that know a better source (the patient's own 'SAIR' reply)
-- correct the logged row in the same transaction.
INSERT INTO `whatsapp_consents` (`patient_id`, `opted_in`, `source`, `created_at`)
SELECT `id`, 1, 'cadastro', coalesce(`whatsapp_opt_in_at`, `created_at`) FROM `patients` WHERE `whatsapp_opt_in` = 1;--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `patients_whatsapp_consent_insert` AFTER INSERT ON `patients`
WHEN NEW.`whatsapp_opt_in` = 1
BEGIN
  INSERT INTO `whatsapp_consents` (`patient_id`, `opted_in`, `source`) VALUES (NEW.`id`, 1, 'cadastro');
END;--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `patients_whatsapp_consent_update` AFTER UPDATE OF `whatsapp_opt_in` ON `patients`
WHEN NEW.`whatsapp_opt_in` IS NOT OLD.`whatsapp_opt_in`
BEGIN
  INSERT INTO `whatsapp_consents` (`patient_id`, `opted_in`, `source`) VALUES (NEW.`id`, NEW.`whatsapp_opt_in`, 'cadastro');
END;--> statement-breakpoint
-- An inbound WhatsApp message names the patient by phone number. Both indexes are partial, so
-- patients without a phone or a birth date cost nothing more to insert.
CREATE INDEX IF NOT EXISTS `patients_phone_idx` ON `patients` (`phone`) WHERE `phone` IS NOT NULL;--> statement-breakpoint
-- Birthday greetings look up today's month and day (date_of_birth is ISO YYYY-MM-DD).
CREATE INDEX IF NOT EXISTS `patients_birthday_idx` ON `patients` (substr(`date_of_birth`, 6, 5)) WHERE `date_of_birth` IS NOT NULL;
