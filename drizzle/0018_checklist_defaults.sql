-- Default stage checklists (Portuguese), inserted once: a clinic's own edits are never overwritten.
INSERT OR IGNORE INTO `stage_checklists` (`stage`, `title`, `active`) VALUES ('aguarda_docs', 'Documentação para pré-autorização', 1);
--> statement-breakpoint
INSERT INTO `stage_checklist_items` (`stage`, `title`, `position`) SELECT `stage`, `title`, `position` FROM (SELECT column1 AS `stage`, column2 AS `title`, column3 AS `position` FROM (VALUES ('aguarda_docs', 'Coletar exames de imagem (RM/TC) e laudos', 0), ('aguarda_docs', 'Termo de consentimento assinado', 1), ('aguarda_docs', 'Cópia da carteirinha do convênio', 2), ('aguarda_docs', 'Pedido médico com CID e códigos TUSS', 3), ('aguarda_docs', 'Relatório médico justificando o procedimento', 4))) WHERE NOT EXISTS (SELECT 1 FROM `stage_checklist_items` WHERE `stage` = 'aguarda_docs');
--> statement-breakpoint
INSERT OR IGNORE INTO `stage_checklists` (`stage`, `title`, `active`) VALUES ('enviado_pre_aut', 'Acompanhar pré-autorização', 1);
--> statement-breakpoint
INSERT INTO `stage_checklist_items` (`stage`, `title`, `position`) SELECT `stage`, `title`, `position` FROM (SELECT column1 AS `stage`, column2 AS `title`, column3 AS `position` FROM (VALUES ('enviado_pre_aut', 'Registrar o número de protocolo da solicitação', 0), ('enviado_pre_aut', 'Confirmar o recebimento pelo convênio', 1), ('enviado_pre_aut', 'Acompanhar o prazo de resposta (10 dias úteis, RN 623)', 2))) WHERE NOT EXISTS (SELECT 1 FROM `stage_checklist_items` WHERE `stage` = 'enviado_pre_aut');
--> statement-breakpoint
INSERT OR IGNORE INTO `stage_checklists` (`stage`, `title`, `active`) VALUES ('opme_cotacao', 'Cotação de OPME', 1);
--> statement-breakpoint
INSERT INTO `stage_checklist_items` (`stage`, `title`, `position`) SELECT `stage`, `title`, `position` FROM (SELECT column1 AS `stage`, column2 AS `title`, column3 AS `position` FROM (VALUES ('opme_cotacao', 'Listar os materiais com registro ANVISA', 0), ('opme_cotacao', 'Pedir cotação a três fornecedores diferentes', 1), ('opme_cotacao', 'Registrar a cotação escolhida e o motivo', 2))) WHERE NOT EXISTS (SELECT 1 FROM `stage_checklist_items` WHERE `stage` = 'opme_cotacao');
--> statement-breakpoint
INSERT OR IGNORE INTO `stage_checklists` (`stage`, `title`, `active`) VALUES ('aprovado', 'Preparar o agendamento', 1);
--> statement-breakpoint
INSERT INTO `stage_checklist_items` (`stage`, `title`, `position`) SELECT `stage`, `title`, `position` FROM (SELECT column1 AS `stage`, column2 AS `title`, column3 AS `position` FROM (VALUES ('aprovado', 'Conferir a senha e a guia de autorização', 0), ('aprovado', 'Reservar a sala no hospital', 1), ('aprovado', 'Confirmar a entrega da OPME', 2))) WHERE NOT EXISTS (SELECT 1 FROM `stage_checklist_items` WHERE `stage` = 'aprovado');
--> statement-breakpoint
INSERT OR IGNORE INTO `stage_checklists` (`stage`, `title`, `active`) VALUES ('negado', 'Recurso da negativa', 1);
--> statement-breakpoint
INSERT INTO `stage_checklist_items` (`stage`, `title`, `position`) SELECT `stage`, `title`, `position` FROM (SELECT column1 AS `stage`, column2 AS `title`, column3 AS `position` FROM (VALUES ('negado', 'Pedir a negativa por escrito com a cláusula contratual', 0), ('negado', 'Preparar relatório médico para o recurso', 1), ('negado', 'Avaliar reclamação na ANS', 2))) WHERE NOT EXISTS (SELECT 1 FROM `stage_checklist_items` WHERE `stage` = 'negado');
--> statement-breakpoint
INSERT OR IGNORE INTO `stage_checklists` (`stage`, `title`, `active`) VALUES ('agendado', 'Pré-operatório', 1);
--> statement-breakpoint
INSERT INTO `stage_checklist_items` (`stage`, `title`, `position`) SELECT `stage`, `title`, `position` FROM (SELECT column1 AS `stage`, column2 AS `title`, column3 AS `position` FROM (VALUES ('agendado', 'Orientar o paciente sobre jejum e medicações', 0), ('agendado', 'Confirmar exames pré-operatórios e risco cirúrgico', 1), ('agendado', 'Confirmar a internação com o hospital', 2))) WHERE NOT EXISTS (SELECT 1 FROM `stage_checklist_items` WHERE `stage` = 'agendado');
--> statement-breakpoint
INSERT OR IGNORE INTO `stage_checklists` (`stage`, `title`, `active`) VALUES ('concluido', 'Faturamento da cirurgia', 1);
--> statement-breakpoint
INSERT INTO `stage_checklist_items` (`stage`, `title`, `position`) SELECT `stage`, `title`, `position` FROM (SELECT column1 AS `stage`, column2 AS `title`, column3 AS `position` FROM (VALUES ('concluido', 'Conferir a descrição cirúrgica', 0), ('concluido', 'Enviar a guia de honorários ao convênio', 1))) WHERE NOT EXISTS (SELECT 1 FROM `stage_checklist_items` WHERE `stage` = 'concluido');
