-- Maintained aggregates of KPIs Cirúrgicos and Financeiros (docs/decisions/0024-kpi-aggregates-surgical-financial.md):
-- the backfill of kpi_surgery_facts, kpi_stage_stays and kpi_rollups from the existing rows, and the
-- triggers that keep them right in the same transaction as every write to surgeries, pipeline_stages,
-- receivable_glosas and financial_transactions. São Paulo days come from kpi_clinic_offsets (migration
-- 0024). Generated from one template, hence the repetition.
INSERT INTO kpi_surgery_facts (surgery_id, day, doctor_id, payer_id, stage, procedure, ans_requested_day, ans_answered_day, ans_answered, ans_denied, paid_day, paid_ms, billed_cents, denied_cents, recovered_cents)
  select s.id, date((cast((s.scheduled_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.scheduled_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), s.doctor_id, s.payer_id, s.current_stage, s.surgery_type,
         case when s.ans_requested_at is not null then date((cast((s.ans_requested_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.ans_requested_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         (select date((cast((a.at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (a.at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') from (select min(ps.created_at) as at from pipeline_stages ps
           where ps.surgery_id = s.id and ps.created_at >= s.ans_requested_at and ps.stage in ('aprovado', 'negado')) a),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage in ('aprovado', 'negado')),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage = 'negado'),
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then date((cast((s.paid_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.paid_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then s.paid_at - s.billed_at end,
         case when s.billed_amount_cents > 0 and s.payer_id is not null then s.billed_amount_cents end,
         (select coalesce(sum(g.denied_cents), 0) from receivable_glosas g where g.surgery_id = s.id),
         (select coalesce(sum(g.recovered_cents), 0) from receivable_glosas g where g.surgery_id = s.id)
    from surgeries s
   where 1;
--> statement-breakpoint
INSERT INTO kpi_stage_stays (stage_id, surgery_id, stage, tenths, day, doctor_id, payer_id)
  select x.id, x.surgery_id, x.stage, (x.ms + 4320000) / 8640000, f.day, f.doctor_id, f.payer_id
    from (select ps.id, ps.surgery_id, ps.stage,
                 (select min(nx.created_at) from pipeline_stages nx
                   where nx.surgery_id = ps.surgery_id and nx.created_at > ps.created_at) - ps.created_at as ms
            from pipeline_stages ps
           where 1) x
    join kpi_surgery_facts f on f.surgery_id = x.surgery_id
   where x.ms is not null;
--> statement-breakpoint
INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'stage', case when sc.k = 1 then r.doctor_id else 0 end, case when sc.k = 2 then r.payer_id else 0 end, lv.level, substr(r.day, 1, case lv.level when 'y' then 4 else 7 end), r.stage, 0, sum(1), sum(0), sum(0), sum(0)
    from kpi_surgery_facts r, (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or r.payer_id is not null) and 1
   group by 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'procedure', case when sc.k = 1 then r.doctor_id else 0 end, case when sc.k = 2 then r.payer_id else 0 end, lv.level, substr(r.day, 1, case lv.level when 'y' then 4 else 7 end), r.procedure, 0, sum(1), sum(0), sum(0), sum(0)
    from kpi_surgery_facts r, (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or r.payer_id is not null) and 1
   group by 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'paid', case when sc.k = 1 then r.doctor_id else 0 end, 0, lv.level, substr(r.paid_day, 1, case lv.level when 'y' then 4 else 7 end), '', r.payer_id, sum(1), sum(r.paid_ms), sum(0), sum(0)
    from kpi_surgery_facts r, (select 0 as k union all select 1) sc, (select 'y' as level union all select 'm') lv
   where 1 and r.paid_day is not null
   group by 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'glosa', case when sc.k = 1 then r.doctor_id else 0 end, 0, lv.level, substr(r.day, 1, case lv.level when 'y' then 4 else 7 end), '', r.payer_id, sum(1), sum(r.billed_cents), sum(r.denied_cents), sum(r.recovered_cents)
    from kpi_surgery_facts r, (select 0 as k union all select 1) sc, (select 'y' as level union all select 'm') lv
   where 1 and r.billed_cents is not null
   group by 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'stay', case when sc.k = 1 then r.doctor_id else 0 end, case when sc.k = 2 then r.payer_id else 0 end, lv.level, substr(r.day, 1, case lv.level when 'y' then 4 else 7 end), r.stage, r.tenths, sum(1), sum(0), sum(0), sum(0)
    from kpi_stage_stays r, (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or r.payer_id is not null) and 1
   group by 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'stayd', case when sc.k = 1 then r.doctor_id else 0 end, case when sc.k = 2 then r.payer_id else 0 end, lv.level, substr(r.day, 1, case lv.level when 'y' then 4 else 7 end), r.stage, r.tenths / 10, sum(1), sum(0), sum(0), sum(0)
    from kpi_stage_stays r, (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or r.payer_id is not null) and 1
   group by 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'ledger', 0, 0, lv.level, substr(r.transaction_date, 1, case lv.level when 'y' then 4 else 7 end), r.type, 0, sum(1), sum(r.amount_cents), sum(0), sum(0)
    from financial_transactions r, (select 0 as k) sc, (select 'y' as level union all select 'm') lv
   where 1 and 1
   group by 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
CREATE TRIGGER `kpi_surgery_facts_ai` AFTER INSERT ON `kpi_surgery_facts` BEGIN
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'stage', case when sc.k = 1 then NEW.doctor_id else 0 end, case when sc.k = 2 then NEW.payer_id else 0 end, lv.level, substr(NEW.day, 1, case lv.level when 'y' then 4 else 7 end), NEW.stage, 0, 1, 0, 0, 0
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or NEW.payer_id is not null) and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'procedure', case when sc.k = 1 then NEW.doctor_id else 0 end, case when sc.k = 2 then NEW.payer_id else 0 end, lv.level, substr(NEW.day, 1, case lv.level when 'y' then 4 else 7 end), NEW.procedure, 0, 1, 0, 0, 0
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or NEW.payer_id is not null) and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'paid', case when sc.k = 1 then NEW.doctor_id else 0 end, 0, lv.level, substr(NEW.paid_day, 1, case lv.level when 'y' then 4 else 7 end), '', NEW.payer_id, 1, NEW.paid_ms, 0, 0
    from (select 0 as k union all select 1) sc, (select 'y' as level union all select 'm') lv
   where 1 and NEW.paid_day is not null
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'glosa', case when sc.k = 1 then NEW.doctor_id else 0 end, 0, lv.level, substr(NEW.day, 1, case lv.level when 'y' then 4 else 7 end), '', NEW.payer_id, 1, NEW.billed_cents, NEW.denied_cents, NEW.recovered_cents
    from (select 0 as k union all select 1) sc, (select 'y' as level union all select 'm') lv
   where 1 and NEW.billed_cents is not null
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_surgery_facts_ad` AFTER DELETE ON `kpi_surgery_facts` BEGIN
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'stage', case when sc.k = 1 then OLD.doctor_id else 0 end, case when sc.k = 2 then OLD.payer_id else 0 end, lv.level, substr(OLD.day, 1, case lv.level when 'y' then 4 else 7 end), OLD.stage, 0, -(1), -(0), -(0), -(0)
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or OLD.payer_id is not null) and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'procedure', case when sc.k = 1 then OLD.doctor_id else 0 end, case when sc.k = 2 then OLD.payer_id else 0 end, lv.level, substr(OLD.day, 1, case lv.level when 'y' then 4 else 7 end), OLD.procedure, 0, -(1), -(0), -(0), -(0)
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or OLD.payer_id is not null) and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'paid', case when sc.k = 1 then OLD.doctor_id else 0 end, 0, lv.level, substr(OLD.paid_day, 1, case lv.level when 'y' then 4 else 7 end), '', OLD.payer_id, -(1), -(OLD.paid_ms), -(0), -(0)
    from (select 0 as k union all select 1) sc, (select 'y' as level union all select 'm') lv
   where 1 and OLD.paid_day is not null
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'glosa', case when sc.k = 1 then OLD.doctor_id else 0 end, 0, lv.level, substr(OLD.day, 1, case lv.level when 'y' then 4 else 7 end), '', OLD.payer_id, -(1), -(OLD.billed_cents), -(OLD.denied_cents), -(OLD.recovered_cents)
    from (select 0 as k union all select 1) sc, (select 'y' as level union all select 'm') lv
   where 1 and OLD.billed_cents is not null
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_stage_stays_ai` AFTER INSERT ON `kpi_stage_stays` BEGIN
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'stay', case when sc.k = 1 then NEW.doctor_id else 0 end, case when sc.k = 2 then NEW.payer_id else 0 end, lv.level, substr(NEW.day, 1, case lv.level when 'y' then 4 else 7 end), NEW.stage, NEW.tenths, 1, 0, 0, 0
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or NEW.payer_id is not null) and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'stayd', case when sc.k = 1 then NEW.doctor_id else 0 end, case when sc.k = 2 then NEW.payer_id else 0 end, lv.level, substr(NEW.day, 1, case lv.level when 'y' then 4 else 7 end), NEW.stage, NEW.tenths / 10, 1, 0, 0, 0
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or NEW.payer_id is not null) and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_stage_stays_ad` AFTER DELETE ON `kpi_stage_stays` BEGIN
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'stay', case when sc.k = 1 then OLD.doctor_id else 0 end, case when sc.k = 2 then OLD.payer_id else 0 end, lv.level, substr(OLD.day, 1, case lv.level when 'y' then 4 else 7 end), OLD.stage, OLD.tenths, -(1), -(0), -(0), -(0)
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or OLD.payer_id is not null) and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'stayd', case when sc.k = 1 then OLD.doctor_id else 0 end, case when sc.k = 2 then OLD.payer_id else 0 end, lv.level, substr(OLD.day, 1, case lv.level when 'y' then 4 else 7 end), OLD.stage, OLD.tenths / 10, -(1), -(0), -(0), -(0)
    from (select 0 as k union all select 1 union all select 2) sc, (select 'y' as level union all select 'm') lv
   where (sc.k < 2 or OLD.payer_id is not null) and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
END;
--> statement-breakpoint
CREATE TRIGGER `financial_transactions_kpi_ai` AFTER INSERT ON `financial_transactions` BEGIN
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'ledger', 0, 0, lv.level, substr(NEW.transaction_date, 1, case lv.level when 'y' then 4 else 7 end), NEW.type, 0, 1, NEW.amount_cents, 0, 0
    from (select 0 as k) sc, (select 'y' as level union all select 'm') lv
   where 1 and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
END;
--> statement-breakpoint
CREATE TRIGGER `financial_transactions_kpi_ad` AFTER DELETE ON `financial_transactions` BEGIN
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'ledger', 0, 0, lv.level, substr(OLD.transaction_date, 1, case lv.level when 'y' then 4 else 7 end), OLD.type, 0, -(1), -(OLD.amount_cents), -(0), -(0)
    from (select 0 as k) sc, (select 'y' as level union all select 'm') lv
   where 1 and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
END;
--> statement-breakpoint
CREATE TRIGGER `financial_transactions_kpi_au` AFTER UPDATE OF `type`, `amount_cents`, `transaction_date` ON `financial_transactions` BEGIN
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'ledger', 0, 0, lv.level, substr(OLD.transaction_date, 1, case lv.level when 'y' then 4 else 7 end), OLD.type, 0, -(1), -(OLD.amount_cents), -(0), -(0)
    from (select 0 as k) sc, (select 'y' as level union all select 'm') lv
   where 1 and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
  INSERT INTO kpi_rollups (metric, doctor_id, payer_id, level, unit, k1, k2, n, v1, v2, v3)
  select 'ledger', 0, 0, lv.level, substr(NEW.transaction_date, 1, case lv.level when 'y' then 4 else 7 end), NEW.type, 0, 1, NEW.amount_cents, 0, 0
    from (select 0 as k) sc, (select 'y' as level union all select 'm') lv
   where 1 and 1
  ON CONFLICT (metric, doctor_id, payer_id, level, unit, k1, k2) DO UPDATE
     SET n = n + excluded.n, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2, v3 = v3 + excluded.v3;
END;
--> statement-breakpoint
CREATE TRIGGER `surgeries_kpi_ai` AFTER INSERT ON `surgeries` BEGIN
  INSERT INTO kpi_surgery_facts (surgery_id, day, doctor_id, payer_id, stage, procedure, ans_requested_day, ans_answered_day, ans_answered, ans_denied, paid_day, paid_ms, billed_cents, denied_cents, recovered_cents)
  select s.id, date((cast((s.scheduled_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.scheduled_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), s.doctor_id, s.payer_id, s.current_stage, s.surgery_type,
         case when s.ans_requested_at is not null then date((cast((s.ans_requested_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.ans_requested_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         (select date((cast((a.at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (a.at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') from (select min(ps.created_at) as at from pipeline_stages ps
           where ps.surgery_id = s.id and ps.created_at >= s.ans_requested_at and ps.stage in ('aprovado', 'negado')) a),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage in ('aprovado', 'negado')),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage = 'negado'),
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then date((cast((s.paid_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.paid_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then s.paid_at - s.billed_at end,
         case when s.billed_amount_cents > 0 and s.payer_id is not null then s.billed_amount_cents end,
         (select coalesce(sum(g.denied_cents), 0) from receivable_glosas g where g.surgery_id = s.id),
         (select coalesce(sum(g.recovered_cents), 0) from receivable_glosas g where g.surgery_id = s.id)
    from surgeries s
   where s.id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `surgeries_kpi_au` AFTER UPDATE OF `id`, `scheduled_date`, `doctor_id`, `payer_id`, `current_stage`, `surgery_type`, `ans_requested_at`, `receivable_status`, `billed_at`, `paid_at`, `billed_amount_cents` ON `surgeries` BEGIN
  DELETE FROM kpi_surgery_facts WHERE surgery_id = OLD.id;
  INSERT INTO kpi_surgery_facts (surgery_id, day, doctor_id, payer_id, stage, procedure, ans_requested_day, ans_answered_day, ans_answered, ans_denied, paid_day, paid_ms, billed_cents, denied_cents, recovered_cents)
  select s.id, date((cast((s.scheduled_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.scheduled_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), s.doctor_id, s.payer_id, s.current_stage, s.surgery_type,
         case when s.ans_requested_at is not null then date((cast((s.ans_requested_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.ans_requested_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         (select date((cast((a.at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (a.at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') from (select min(ps.created_at) as at from pipeline_stages ps
           where ps.surgery_id = s.id and ps.created_at >= s.ans_requested_at and ps.stage in ('aprovado', 'negado')) a),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage in ('aprovado', 'negado')),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage = 'negado'),
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then date((cast((s.paid_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.paid_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then s.paid_at - s.billed_at end,
         case when s.billed_amount_cents > 0 and s.payer_id is not null then s.billed_amount_cents end,
         (select coalesce(sum(g.denied_cents), 0) from receivable_glosas g where g.surgery_id = s.id),
         (select coalesce(sum(g.recovered_cents), 0) from receivable_glosas g where g.surgery_id = s.id)
    from surgeries s
   where s.id = NEW.id;
  DELETE FROM kpi_stage_stays WHERE surgery_id = OLD.id AND (OLD.id IS NOT NEW.id OR OLD.scheduled_date IS NOT NEW.scheduled_date OR OLD.doctor_id IS NOT NEW.doctor_id OR OLD.payer_id IS NOT NEW.payer_id);
  INSERT INTO kpi_stage_stays (stage_id, surgery_id, stage, tenths, day, doctor_id, payer_id)
  select x.id, x.surgery_id, x.stage, (x.ms + 4320000) / 8640000, f.day, f.doctor_id, f.payer_id
    from (select ps.id, ps.surgery_id, ps.stage,
                 (select min(nx.created_at) from pipeline_stages nx
                   where nx.surgery_id = ps.surgery_id and nx.created_at > ps.created_at) - ps.created_at as ms
            from pipeline_stages ps
           where ps.surgery_id = NEW.id AND (OLD.id IS NOT NEW.id OR OLD.scheduled_date IS NOT NEW.scheduled_date OR OLD.doctor_id IS NOT NEW.doctor_id OR OLD.payer_id IS NOT NEW.payer_id)) x
    join kpi_surgery_facts f on f.surgery_id = x.surgery_id
   where x.ms is not null;
END;
--> statement-breakpoint
CREATE TRIGGER `surgeries_kpi_ad` AFTER DELETE ON `surgeries` BEGIN
  DELETE FROM kpi_stage_stays WHERE surgery_id = OLD.id;
  DELETE FROM kpi_surgery_facts WHERE surgery_id = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER `pipeline_stages_kpi_ai` AFTER INSERT ON `pipeline_stages` BEGIN
  DELETE FROM kpi_surgery_facts WHERE surgery_id = NEW.surgery_id;
  INSERT INTO kpi_surgery_facts (surgery_id, day, doctor_id, payer_id, stage, procedure, ans_requested_day, ans_answered_day, ans_answered, ans_denied, paid_day, paid_ms, billed_cents, denied_cents, recovered_cents)
  select s.id, date((cast((s.scheduled_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.scheduled_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), s.doctor_id, s.payer_id, s.current_stage, s.surgery_type,
         case when s.ans_requested_at is not null then date((cast((s.ans_requested_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.ans_requested_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         (select date((cast((a.at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (a.at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') from (select min(ps.created_at) as at from pipeline_stages ps
           where ps.surgery_id = s.id and ps.created_at >= s.ans_requested_at and ps.stage in ('aprovado', 'negado')) a),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage in ('aprovado', 'negado')),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage = 'negado'),
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then date((cast((s.paid_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.paid_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then s.paid_at - s.billed_at end,
         case when s.billed_amount_cents > 0 and s.payer_id is not null then s.billed_amount_cents end,
         (select coalesce(sum(g.denied_cents), 0) from receivable_glosas g where g.surgery_id = s.id),
         (select coalesce(sum(g.recovered_cents), 0) from receivable_glosas g where g.surgery_id = s.id)
    from surgeries s
   where s.id = NEW.surgery_id;
  DELETE FROM kpi_stage_stays WHERE surgery_id = NEW.surgery_id;
  INSERT INTO kpi_stage_stays (stage_id, surgery_id, stage, tenths, day, doctor_id, payer_id)
  select x.id, x.surgery_id, x.stage, (x.ms + 4320000) / 8640000, f.day, f.doctor_id, f.payer_id
    from (select ps.id, ps.surgery_id, ps.stage,
                 (select min(nx.created_at) from pipeline_stages nx
                   where nx.surgery_id = ps.surgery_id and nx.created_at > ps.created_at) - ps.created_at as ms
            from pipeline_stages ps
           where ps.surgery_id = NEW.surgery_id) x
    join kpi_surgery_facts f on f.surgery_id = x.surgery_id
   where x.ms is not null;
END;
--> statement-breakpoint
CREATE TRIGGER `pipeline_stages_kpi_ad` AFTER DELETE ON `pipeline_stages` BEGIN
  DELETE FROM kpi_surgery_facts WHERE surgery_id = OLD.surgery_id;
  INSERT INTO kpi_surgery_facts (surgery_id, day, doctor_id, payer_id, stage, procedure, ans_requested_day, ans_answered_day, ans_answered, ans_denied, paid_day, paid_ms, billed_cents, denied_cents, recovered_cents)
  select s.id, date((cast((s.scheduled_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.scheduled_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), s.doctor_id, s.payer_id, s.current_stage, s.surgery_type,
         case when s.ans_requested_at is not null then date((cast((s.ans_requested_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.ans_requested_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         (select date((cast((a.at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (a.at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') from (select min(ps.created_at) as at from pipeline_stages ps
           where ps.surgery_id = s.id and ps.created_at >= s.ans_requested_at and ps.stage in ('aprovado', 'negado')) a),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage in ('aprovado', 'negado')),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage = 'negado'),
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then date((cast((s.paid_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.paid_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then s.paid_at - s.billed_at end,
         case when s.billed_amount_cents > 0 and s.payer_id is not null then s.billed_amount_cents end,
         (select coalesce(sum(g.denied_cents), 0) from receivable_glosas g where g.surgery_id = s.id),
         (select coalesce(sum(g.recovered_cents), 0) from receivable_glosas g where g.surgery_id = s.id)
    from surgeries s
   where s.id = OLD.surgery_id;
  DELETE FROM kpi_stage_stays WHERE surgery_id = OLD.surgery_id;
  INSERT INTO kpi_stage_stays (stage_id, surgery_id, stage, tenths, day, doctor_id, payer_id)
  select x.id, x.surgery_id, x.stage, (x.ms + 4320000) / 8640000, f.day, f.doctor_id, f.payer_id
    from (select ps.id, ps.surgery_id, ps.stage,
                 (select min(nx.created_at) from pipeline_stages nx
                   where nx.surgery_id = ps.surgery_id and nx.created_at > ps.created_at) - ps.created_at as ms
            from pipeline_stages ps
           where ps.surgery_id = OLD.surgery_id) x
    join kpi_surgery_facts f on f.surgery_id = x.surgery_id
   where x.ms is not null;
END;
--> statement-breakpoint
CREATE TRIGGER `pipeline_stages_kpi_au` AFTER UPDATE OF `surgery_id`, `stage`, `created_at` ON `pipeline_stages` BEGIN
  DELETE FROM kpi_surgery_facts WHERE surgery_id = OLD.surgery_id;
  INSERT INTO kpi_surgery_facts (surgery_id, day, doctor_id, payer_id, stage, procedure, ans_requested_day, ans_answered_day, ans_answered, ans_denied, paid_day, paid_ms, billed_cents, denied_cents, recovered_cents)
  select s.id, date((cast((s.scheduled_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.scheduled_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), s.doctor_id, s.payer_id, s.current_stage, s.surgery_type,
         case when s.ans_requested_at is not null then date((cast((s.ans_requested_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.ans_requested_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         (select date((cast((a.at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (a.at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') from (select min(ps.created_at) as at from pipeline_stages ps
           where ps.surgery_id = s.id and ps.created_at >= s.ans_requested_at and ps.stage in ('aprovado', 'negado')) a),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage in ('aprovado', 'negado')),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage = 'negado'),
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then date((cast((s.paid_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.paid_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then s.paid_at - s.billed_at end,
         case when s.billed_amount_cents > 0 and s.payer_id is not null then s.billed_amount_cents end,
         (select coalesce(sum(g.denied_cents), 0) from receivable_glosas g where g.surgery_id = s.id),
         (select coalesce(sum(g.recovered_cents), 0) from receivable_glosas g where g.surgery_id = s.id)
    from surgeries s
   where s.id = OLD.surgery_id;
  DELETE FROM kpi_stage_stays WHERE surgery_id = OLD.surgery_id;
  INSERT INTO kpi_stage_stays (stage_id, surgery_id, stage, tenths, day, doctor_id, payer_id)
  select x.id, x.surgery_id, x.stage, (x.ms + 4320000) / 8640000, f.day, f.doctor_id, f.payer_id
    from (select ps.id, ps.surgery_id, ps.stage,
                 (select min(nx.created_at) from pipeline_stages nx
                   where nx.surgery_id = ps.surgery_id and nx.created_at > ps.created_at) - ps.created_at as ms
            from pipeline_stages ps
           where ps.surgery_id = OLD.surgery_id) x
    join kpi_surgery_facts f on f.surgery_id = x.surgery_id
   where x.ms is not null;
  DELETE FROM kpi_surgery_facts WHERE surgery_id = NEW.surgery_id;
  INSERT INTO kpi_surgery_facts (surgery_id, day, doctor_id, payer_id, stage, procedure, ans_requested_day, ans_answered_day, ans_answered, ans_denied, paid_day, paid_ms, billed_cents, denied_cents, recovered_cents)
  select s.id, date((cast((s.scheduled_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.scheduled_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), s.doctor_id, s.payer_id, s.current_stage, s.surgery_type,
         case when s.ans_requested_at is not null then date((cast((s.ans_requested_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.ans_requested_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         (select date((cast((a.at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (a.at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') from (select min(ps.created_at) as at from pipeline_stages ps
           where ps.surgery_id = s.id and ps.created_at >= s.ans_requested_at and ps.stage in ('aprovado', 'negado')) a),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage in ('aprovado', 'negado')),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage = 'negado'),
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then date((cast((s.paid_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.paid_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then s.paid_at - s.billed_at end,
         case when s.billed_amount_cents > 0 and s.payer_id is not null then s.billed_amount_cents end,
         (select coalesce(sum(g.denied_cents), 0) from receivable_glosas g where g.surgery_id = s.id),
         (select coalesce(sum(g.recovered_cents), 0) from receivable_glosas g where g.surgery_id = s.id)
    from surgeries s
   where s.id = NEW.surgery_id;
  DELETE FROM kpi_stage_stays WHERE surgery_id = NEW.surgery_id;
  INSERT INTO kpi_stage_stays (stage_id, surgery_id, stage, tenths, day, doctor_id, payer_id)
  select x.id, x.surgery_id, x.stage, (x.ms + 4320000) / 8640000, f.day, f.doctor_id, f.payer_id
    from (select ps.id, ps.surgery_id, ps.stage,
                 (select min(nx.created_at) from pipeline_stages nx
                   where nx.surgery_id = ps.surgery_id and nx.created_at > ps.created_at) - ps.created_at as ms
            from pipeline_stages ps
           where ps.surgery_id = NEW.surgery_id) x
    join kpi_surgery_facts f on f.surgery_id = x.surgery_id
   where x.ms is not null;
END;
--> statement-breakpoint
CREATE TRIGGER `receivable_glosas_kpi_ai` AFTER INSERT ON `receivable_glosas` BEGIN
  DELETE FROM kpi_surgery_facts WHERE surgery_id = NEW.surgery_id;
  INSERT INTO kpi_surgery_facts (surgery_id, day, doctor_id, payer_id, stage, procedure, ans_requested_day, ans_answered_day, ans_answered, ans_denied, paid_day, paid_ms, billed_cents, denied_cents, recovered_cents)
  select s.id, date((cast((s.scheduled_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.scheduled_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), s.doctor_id, s.payer_id, s.current_stage, s.surgery_type,
         case when s.ans_requested_at is not null then date((cast((s.ans_requested_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.ans_requested_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         (select date((cast((a.at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (a.at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') from (select min(ps.created_at) as at from pipeline_stages ps
           where ps.surgery_id = s.id and ps.created_at >= s.ans_requested_at and ps.stage in ('aprovado', 'negado')) a),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage in ('aprovado', 'negado')),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage = 'negado'),
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then date((cast((s.paid_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.paid_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then s.paid_at - s.billed_at end,
         case when s.billed_amount_cents > 0 and s.payer_id is not null then s.billed_amount_cents end,
         (select coalesce(sum(g.denied_cents), 0) from receivable_glosas g where g.surgery_id = s.id),
         (select coalesce(sum(g.recovered_cents), 0) from receivable_glosas g where g.surgery_id = s.id)
    from surgeries s
   where s.id = NEW.surgery_id;
END;
--> statement-breakpoint
CREATE TRIGGER `receivable_glosas_kpi_ad` AFTER DELETE ON `receivable_glosas` BEGIN
  DELETE FROM kpi_surgery_facts WHERE surgery_id = OLD.surgery_id;
  INSERT INTO kpi_surgery_facts (surgery_id, day, doctor_id, payer_id, stage, procedure, ans_requested_day, ans_answered_day, ans_answered, ans_denied, paid_day, paid_ms, billed_cents, denied_cents, recovered_cents)
  select s.id, date((cast((s.scheduled_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.scheduled_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), s.doctor_id, s.payer_id, s.current_stage, s.surgery_type,
         case when s.ans_requested_at is not null then date((cast((s.ans_requested_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.ans_requested_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         (select date((cast((a.at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (a.at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') from (select min(ps.created_at) as at from pipeline_stages ps
           where ps.surgery_id = s.id and ps.created_at >= s.ans_requested_at and ps.stage in ('aprovado', 'negado')) a),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage in ('aprovado', 'negado')),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage = 'negado'),
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then date((cast((s.paid_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.paid_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then s.paid_at - s.billed_at end,
         case when s.billed_amount_cents > 0 and s.payer_id is not null then s.billed_amount_cents end,
         (select coalesce(sum(g.denied_cents), 0) from receivable_glosas g where g.surgery_id = s.id),
         (select coalesce(sum(g.recovered_cents), 0) from receivable_glosas g where g.surgery_id = s.id)
    from surgeries s
   where s.id = OLD.surgery_id;
END;
--> statement-breakpoint
CREATE TRIGGER `receivable_glosas_kpi_au` AFTER UPDATE OF `surgery_id`, `denied_cents`, `recovered_cents` ON `receivable_glosas` BEGIN
  DELETE FROM kpi_surgery_facts WHERE surgery_id = OLD.surgery_id;
  INSERT INTO kpi_surgery_facts (surgery_id, day, doctor_id, payer_id, stage, procedure, ans_requested_day, ans_answered_day, ans_answered, ans_denied, paid_day, paid_ms, billed_cents, denied_cents, recovered_cents)
  select s.id, date((cast((s.scheduled_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.scheduled_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), s.doctor_id, s.payer_id, s.current_stage, s.surgery_type,
         case when s.ans_requested_at is not null then date((cast((s.ans_requested_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.ans_requested_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         (select date((cast((a.at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (a.at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') from (select min(ps.created_at) as at from pipeline_stages ps
           where ps.surgery_id = s.id and ps.created_at >= s.ans_requested_at and ps.stage in ('aprovado', 'negado')) a),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage in ('aprovado', 'negado')),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage = 'negado'),
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then date((cast((s.paid_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.paid_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then s.paid_at - s.billed_at end,
         case when s.billed_amount_cents > 0 and s.payer_id is not null then s.billed_amount_cents end,
         (select coalesce(sum(g.denied_cents), 0) from receivable_glosas g where g.surgery_id = s.id),
         (select coalesce(sum(g.recovered_cents), 0) from receivable_glosas g where g.surgery_id = s.id)
    from surgeries s
   where s.id = OLD.surgery_id;
  DELETE FROM kpi_surgery_facts WHERE surgery_id = NEW.surgery_id;
  INSERT INTO kpi_surgery_facts (surgery_id, day, doctor_id, payer_id, stage, procedure, ans_requested_day, ans_answered_day, ans_answered, ans_denied, paid_day, paid_ms, billed_cents, denied_cents, recovered_cents)
  select s.id, date((cast((s.scheduled_date) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.scheduled_date) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch'), s.doctor_id, s.payer_id, s.current_stage, s.surgery_type,
         case when s.ans_requested_at is not null then date((cast((s.ans_requested_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.ans_requested_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         (select date((cast((a.at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (a.at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') from (select min(ps.created_at) as at from pipeline_stages ps
           where ps.surgery_id = s.id and ps.created_at >= s.ans_requested_at and ps.stage in ('aprovado', 'negado')) a),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage in ('aprovado', 'negado')),
         exists (select 1 from pipeline_stages ps where ps.surgery_id = s.id and ps.stage = 'negado'),
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then date((cast((s.paid_at) + coalesce((select o.offset_ms from kpi_clinic_offsets o where o.from_ms <= (s.paid_at) order by o.from_ms desc limit 1), -10800000) + 86400000000000 as integer) / 86400000) * 86400 - 86400000000, 'unixepoch') end,
         case when s.receivable_status = 'pago' and s.payer_id is not null and s.billed_at is not null and s.paid_at is not null and s.paid_at >= s.billed_at then s.paid_at - s.billed_at end,
         case when s.billed_amount_cents > 0 and s.payer_id is not null then s.billed_amount_cents end,
         (select coalesce(sum(g.denied_cents), 0) from receivable_glosas g where g.surgery_id = s.id),
         (select coalesce(sum(g.recovered_cents), 0) from receivable_glosas g where g.surgery_id = s.id)
    from surgeries s
   where s.id = NEW.surgery_id;
END;
--> statement-breakpoint
ANALYZE kpi_rollups;
--> statement-breakpoint
ANALYZE kpi_surgery_facts;
