DROP INDEX `kpi_opme_requests_day_idx`;--> statement-breakpoint
DROP INDEX `kpi_opme_requests_doctor_day_idx`;--> statement-breakpoint
DROP INDEX `kpi_opme_requests_payer_day_idx`;--> statement-breakpoint
ALTER TABLE `kpi_opme_requests` ADD `quotes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `kpi_opme_requests` ADD `complete_quotes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `kpi_opme_requests` ADD `highest_cents` integer;--> statement-breakpoint
ALTER TABLE `kpi_opme_requests` ADD `chosen_supplier_id` integer;--> statement-breakpoint
ALTER TABLE `kpi_opme_requests` ADD `chosen_cents` integer;--> statement-breakpoint
ALTER TABLE `kpi_opme_requests` ADD `chosen_complete` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `kpi_opme_requests_doctor_payer_day_idx` ON `kpi_opme_requests` (`doctor_id`,`payer_id`,`day`,`procedure`,`chosen_supplier_id`,`quotes`,`chosen_cents`,`chosen_complete`,`complete_quotes`,`highest_cents`);--> statement-breakpoint
CREATE INDEX `kpi_opme_requests_day_idx` ON `kpi_opme_requests` (`day`,`procedure`,`chosen_supplier_id`,`quotes`,`chosen_cents`,`chosen_complete`,`complete_quotes`,`highest_cents`);--> statement-breakpoint
CREATE INDEX `kpi_opme_requests_doctor_day_idx` ON `kpi_opme_requests` (`doctor_id`,`day`,`procedure`,`chosen_supplier_id`,`quotes`,`chosen_cents`,`chosen_complete`,`complete_quotes`,`highest_cents`);--> statement-breakpoint
CREATE INDEX `kpi_opme_requests_payer_day_idx` ON `kpi_opme_requests` (`payer_id`,`day`,`procedure`,`chosen_supplier_id`,`quotes`,`chosen_cents`,`chosen_complete`,`complete_quotes`,`highest_cents`);
--> statement-breakpoint
-- The quotes' facts of each OPME request and their rollups (docs/decisions/0024-kpi-aggregates-surgical-financial.md,
-- 'KPIs OPME'): the backfill from the existing rows, and the triggers that keep them right in the same
-- transaction as every write to opme_requests, opme_items, opme_quotes and opme_quote_prices. A write
-- recomputes its request's row from the request's few quotes; the rollups follow from triggers on
-- kpi_opme_requests. The triggers of migration 0028 that insert a request's row are replaced by ones
-- that also compute its facts. Generated from one template, hence the repetition.
DROP TRIGGER IF EXISTS `kpi_surgery_facts_opme_ai`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `opme_requests_kpi_ai`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `opme_requests_kpi_au`;
--> statement-breakpoint
UPDATE kpi_opme_requests SET (quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete) = (
  select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
         max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
         coalesce(max(case when x.chosen then x.complete end), 0)
    from (select q.id, q.supplier_id,
                 q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                 count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                 coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
            from opme_quotes q
            left join opme_quote_prices qp on qp.quote_id = q.id
            left join opme_items i on i.id = qp.item_id
           where q.request_id = kpi_opme_requests.request_id
           group by q.id) x)
 WHERE 1;
--> statement-breakpoint
INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'opme', case when sc.k = 1 then r.doctor_id else 0 end, case when sc.k = 2 then r.payer_id else 0 end, lv.level, substr(r.day, 1, case lv.level when 'y' then 4 else 7 end), r.procedure, coalesce(r.chosen_supplier_id, 0), sum(1), sum(r.quotes), sum(coalesce(r.chosen_cents, 0)), sum(0)
    from kpi_opme_requests r, (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or r.payer_id is not null) and 1
   group by 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'opme_saving', case when sc.k = 1 then r.doctor_id else 0 end, case when sc.k = 2 then r.payer_id else 0 end, lv.level, substr(r.day, 1, case lv.level when 'y' then 4 else 7 end), '', 0, sum(1), sum(r.highest_cents), sum(r.highest_cents - r.chosen_cents), sum(0)
    from kpi_opme_requests r, (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or r.payer_id is not null) and r.chosen_complete = 1 and r.complete_quotes >= 2
   group by 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
CREATE TRIGGER `kpi_surgery_facts_opme_ai` AFTER INSERT ON `kpi_surgery_facts` BEGIN
  INSERT INTO kpi_opme_requests (request_id, surgery_id, day, doctor_id, payer_id, procedure, quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete)
  select r.id, NEW.surgery_id, NEW.day, NEW.doctor_id, NEW.payer_id, NEW.procedure, x.*
    from opme_requests r, (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = (select r2.id from opme_requests r2 where r2.surgery_id = NEW.surgery_id)
             group by q.id) x) x
   where r.surgery_id = NEW.surgery_id;
END;
--> statement-breakpoint
CREATE TRIGGER `opme_requests_kpi_ai` AFTER INSERT ON `opme_requests` BEGIN
  INSERT INTO kpi_opme_requests (request_id, surgery_id, day, doctor_id, payer_id, procedure, quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete)
  select NEW.id, f.surgery_id, f.day, f.doctor_id, f.payer_id, f.procedure, x.*
    from kpi_surgery_facts f, (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = NEW.id
             group by q.id) x) x
   where f.surgery_id = NEW.surgery_id;
END;
--> statement-breakpoint
CREATE TRIGGER `opme_requests_kpi_au` AFTER UPDATE OF `id`, `surgery_id` ON `opme_requests` BEGIN
  DELETE FROM kpi_opme_requests WHERE request_id = OLD.id;
  INSERT INTO kpi_opme_requests (request_id, surgery_id, day, doctor_id, payer_id, procedure, quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete)
  select NEW.id, f.surgery_id, f.day, f.doctor_id, f.payer_id, f.procedure, x.*
    from kpi_surgery_facts f, (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = NEW.id
             group by q.id) x) x
   where f.surgery_id = NEW.surgery_id;
END;
--> statement-breakpoint
CREATE TRIGGER `opme_requests_kpi_choice_au` AFTER UPDATE OF `chosen_quote_id` ON `opme_requests` BEGIN
  UPDATE kpi_opme_requests SET (quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete) = (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = kpi_opme_requests.request_id
             group by q.id) x)
   WHERE request_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `opme_items_kpi_ai` AFTER INSERT ON `opme_items` BEGIN
  UPDATE kpi_opme_requests SET (quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete) = (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = kpi_opme_requests.request_id
             group by q.id) x)
   WHERE request_id = NEW.request_id;
END;
--> statement-breakpoint
CREATE TRIGGER `opme_items_kpi_ad` AFTER DELETE ON `opme_items` BEGIN
  UPDATE kpi_opme_requests SET (quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete) = (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = kpi_opme_requests.request_id
             group by q.id) x)
   WHERE request_id = OLD.request_id or request_id in (select q.request_id from opme_quote_prices qp join opme_quotes q on q.id = qp.quote_id where qp.item_id = OLD.id);
END;
--> statement-breakpoint
CREATE TRIGGER `opme_items_kpi_au` AFTER UPDATE OF `id`, `request_id`, `quantity` ON `opme_items` BEGIN
  UPDATE kpi_opme_requests SET (quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete) = (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = kpi_opme_requests.request_id
             group by q.id) x)
   WHERE request_id in (OLD.request_id, NEW.request_id) or request_id in (select q.request_id from opme_quote_prices qp join opme_quotes q on q.id = qp.quote_id where qp.item_id = NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER `opme_quotes_kpi_ai` AFTER INSERT ON `opme_quotes` BEGIN
  UPDATE kpi_opme_requests SET (quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete) = (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = kpi_opme_requests.request_id
             group by q.id) x)
   WHERE request_id = NEW.request_id;
END;
--> statement-breakpoint
CREATE TRIGGER `opme_quotes_kpi_ad` AFTER DELETE ON `opme_quotes` BEGIN
  UPDATE kpi_opme_requests SET (quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete) = (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = kpi_opme_requests.request_id
             group by q.id) x)
   WHERE request_id = OLD.request_id;
END;
--> statement-breakpoint
CREATE TRIGGER `opme_quotes_kpi_au` AFTER UPDATE OF `id`, `request_id`, `supplier_id` ON `opme_quotes` BEGIN
  UPDATE kpi_opme_requests SET (quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete) = (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = kpi_opme_requests.request_id
             group by q.id) x)
   WHERE request_id in (OLD.request_id, NEW.request_id);
END;
--> statement-breakpoint
CREATE TRIGGER `opme_quote_prices_kpi_ai` AFTER INSERT ON `opme_quote_prices` BEGIN
  UPDATE kpi_opme_requests SET (quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete) = (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = kpi_opme_requests.request_id
             group by q.id) x)
   WHERE request_id = (select q.request_id from opme_quotes q where q.id = NEW.quote_id);
END;
--> statement-breakpoint
CREATE TRIGGER `opme_quote_prices_kpi_ad` AFTER DELETE ON `opme_quote_prices` BEGIN
  UPDATE kpi_opme_requests SET (quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete) = (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = kpi_opme_requests.request_id
             group by q.id) x)
   WHERE request_id = (select q.request_id from opme_quotes q where q.id = OLD.quote_id);
END;
--> statement-breakpoint
CREATE TRIGGER `opme_quote_prices_kpi_au` AFTER UPDATE ON `opme_quote_prices` BEGIN
  UPDATE kpi_opme_requests SET (quotes, complete_quotes, highest_cents, chosen_supplier_id, chosen_cents, chosen_complete) = (
    select count(x.id), coalesce(sum(x.complete), 0), max(case when x.complete then x.total end),
           max(case when x.chosen then x.supplier_id end), max(case when x.chosen then x.total end),
           coalesce(max(case when x.chosen then x.complete end), 0)
      from (select q.id, q.supplier_id,
                   q.id is (select r.chosen_quote_id from opme_requests r where r.id = q.request_id) as chosen,
                   count(qp.item_id) = (select count(*) from opme_items i where i.request_id = q.request_id) as complete,
                   coalesce(sum(qp.unit_price_cents * i.quantity), 0) as total
              from opme_quotes q
              left join opme_quote_prices qp on qp.quote_id = q.id
              left join opme_items i on i.id = qp.item_id
             where q.request_id = kpi_opme_requests.request_id
             group by q.id) x)
   WHERE request_id in ((select q.request_id from opme_quotes q where q.id = OLD.quote_id), (select q.request_id from opme_quotes q where q.id = NEW.quote_id));
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_opme_requests_ai` AFTER INSERT ON `kpi_opme_requests` BEGIN
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'opme', case when sc.k = 1 then NEW.doctor_id else 0 end, case when sc.k = 2 then NEW.payer_id else 0 end, lv.level, substr(NEW.day, 1, case lv.level when 'y' then 4 else 7 end), NEW.procedure, coalesce(NEW.chosen_supplier_id, 0), 1, NEW.quotes, coalesce(NEW.chosen_cents, 0), 0
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or NEW.payer_id is not null) and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'opme_saving', case when sc.k = 1 then NEW.doctor_id else 0 end, case when sc.k = 2 then NEW.payer_id else 0 end, lv.level, substr(NEW.day, 1, case lv.level when 'y' then 4 else 7 end), '', 0, 1, NEW.highest_cents, NEW.highest_cents - NEW.chosen_cents, 0
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or NEW.payer_id is not null) and NEW.chosen_complete = 1 and NEW.complete_quotes >= 2
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_opme_requests_ad` AFTER DELETE ON `kpi_opme_requests` BEGIN
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'opme', case when sc.k = 1 then OLD.doctor_id else 0 end, case when sc.k = 2 then OLD.payer_id else 0 end, lv.level, substr(OLD.day, 1, case lv.level when 'y' then 4 else 7 end), OLD.procedure, coalesce(OLD.chosen_supplier_id, 0), -(1), -(OLD.quotes), -(coalesce(OLD.chosen_cents, 0)), -(0)
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or OLD.payer_id is not null) and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'opme_saving', case when sc.k = 1 then OLD.doctor_id else 0 end, case when sc.k = 2 then OLD.payer_id else 0 end, lv.level, substr(OLD.day, 1, case lv.level when 'y' then 4 else 7 end), '', 0, -(1), -(OLD.highest_cents), -(OLD.highest_cents - OLD.chosen_cents), -(0)
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or OLD.payer_id is not null) and OLD.chosen_complete = 1 and OLD.complete_quotes >= 2
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_opme_requests_au` AFTER UPDATE ON `kpi_opme_requests`
  WHEN OLD.day IS NOT NEW.day OR OLD.doctor_id IS NOT NEW.doctor_id OR OLD.payer_id IS NOT NEW.payer_id OR OLD.procedure IS NOT NEW.procedure OR OLD.quotes IS NOT NEW.quotes OR OLD.complete_quotes IS NOT NEW.complete_quotes OR OLD.highest_cents IS NOT NEW.highest_cents OR OLD.chosen_supplier_id IS NOT NEW.chosen_supplier_id OR OLD.chosen_cents IS NOT NEW.chosen_cents OR OLD.chosen_complete IS NOT NEW.chosen_complete BEGIN
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'opme', case when sc.k = 1 then OLD.doctor_id else 0 end, case when sc.k = 2 then OLD.payer_id else 0 end, lv.level, substr(OLD.day, 1, case lv.level when 'y' then 4 else 7 end), OLD.procedure, coalesce(OLD.chosen_supplier_id, 0), -(1), -(OLD.quotes), -(coalesce(OLD.chosen_cents, 0)), -(0)
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or OLD.payer_id is not null) and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'opme_saving', case when sc.k = 1 then OLD.doctor_id else 0 end, case when sc.k = 2 then OLD.payer_id else 0 end, lv.level, substr(OLD.day, 1, case lv.level when 'y' then 4 else 7 end), '', 0, -(1), -(OLD.highest_cents), -(OLD.highest_cents - OLD.chosen_cents), -(0)
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or OLD.payer_id is not null) and OLD.chosen_complete = 1 and OLD.complete_quotes >= 2
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'opme', case when sc.k = 1 then NEW.doctor_id else 0 end, case when sc.k = 2 then NEW.payer_id else 0 end, lv.level, substr(NEW.day, 1, case lv.level when 'y' then 4 else 7 end), NEW.procedure, coalesce(NEW.chosen_supplier_id, 0), 1, NEW.quotes, coalesce(NEW.chosen_cents, 0), 0
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or NEW.payer_id is not null) and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'opme_saving', case when sc.k = 1 then NEW.doctor_id else 0 end, case when sc.k = 2 then NEW.payer_id else 0 end, lv.level, substr(NEW.day, 1, case lv.level when 'y' then 4 else 7 end), '', 0, 1, NEW.highest_cents, NEW.highest_cents - NEW.chosen_cents, 0
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or NEW.payer_id is not null) and NEW.chosen_complete = 1 and NEW.complete_quotes >= 2
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
END;
