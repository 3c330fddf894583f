/**
 * Dashboard figures computed against rows this file inserts, with the clock pinned by `now`.
 * The main `now` is 2025-03-01T02:00Z, which is still 28 Feb 23:00 in São Paulo: "this month" is
 * February there while it is already March in UTC and in Tokyo, so any figure computed in the
 * process TZ instead of clinic time comes out wrong. Run under TZ=UTC and TZ=Asia/Tokyo too.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { appointments, doctors, financialTransactions, patients, surgeries } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { PIPELINE_STAGE_IDS, type PipelineStage } from "~/lib/pipeline";
import { getDashboardStats, monthTrend, ratio } from "~/models/dashboard.server";
import { createAccount } from "~/models/user.server";
import { loader } from "~/routes/dashboard";
import { getRequest, insertDoctor, insertPatient, loginAs, routeArgs, sessionCookie } from "./helpers";

const NOW = new Date("2025-03-01T02:00:00.000Z"); // São Paulo: 2025-02-28 23:00
const at = (iso: string) => new Date(iso);

function clearClinicalRows() {
  db.delete(financialTransactions).run();
  db.delete(surgeries).run();
  db.delete(appointments).run();
  db.delete(doctors).run();
  db.delete(patients).run();
}

function addPatient(name: string, createdAt: Date) {
  return insertPatient(name, { createdAt, updatedAt: createdAt });
}

describe("pure formulas", () => {
  it("trend is (this − last) / last with one decimal, and null without a base", () => {
    expect(monthTrend(4, 3).percent).toBe(33.3);
    expect(monthTrend(3, 4).percent).toBe(-25);
    expect(monthTrend(0, 7).percent).toBe(-100);
    expect(monthTrend(5, 0).percent).toBeNull();
    expect(monthTrend(0, 0).percent).toBeNull();
  });

  it("a ratio of nothing is null, not 0 %", () => {
    expect(ratio(2, 3).percent).toBe(66.7);
    expect(ratio(0, 5).percent).toBe(0);
    expect(ratio(0, 0).percent).toBeNull();
  });
});

describe("an empty clinic", () => {
  beforeAll(clearClinicalRows);

  it("shows zero counts and no invented rates", () => {
    const stats = getDashboardStats({ now: NOW, includeRevenue: true });
    expect(stats.patients).toEqual({ total: 0, trend: { thisMonth: 0, lastMonth: 0, percent: null } });
    expect(stats.appointments.total).toBe(0);
    expect(stats.surgeries.total).toBe(0);
    expect(stats.revenue).toEqual({ monthCents: 0, trend: { thisMonth: 0, lastMonth: 0, percent: null } });
    expect(stats.successRate.percent).toBeNull();
    expect(stats.billingRate.percent).toBeNull();
    expect(stats.averageWait).toEqual({ days: null, appointments: 0, windowDays: 90 });
    expect(stats.stageDistribution.map((s) => s.stage)).toEqual([...PIPELINE_STAGE_IDS]);
    expect(stats.stageDistribution.every((s) => s.count === 0)).toBe(true);
    expect(stats.stageDistribution[0].label).toBe("Aguarda Docs");
  });
});

describe("a clinic with data", () => {
  beforeAll(() => {
    clearClinicalRows();
    // Patients by registration date.
    const p1 = addPatient("Ana", at("2025-02-01T03:00:00.000Z")); // SP 1 Feb 00:00 → this month
    addPatient("Bia", at("2025-03-01T01:00:00.000Z")); // SP 28 Feb 22:00 → this month (March in UTC)
    addPatient("Caio", at("2025-02-01T02:59:59.999Z")); // SP 31 Jan 23:59 → last month
    addPatient("Davi", at("2024-12-15T15:00:00.000Z")); // older
    const d1 = insertDoctor("Dr. X", { specialty: "Neuro", crm: "1" });

    const appt = (start: string, created: string, status: "scheduled" | "confirmed" | "completed" | "cancelled" = "scheduled") => {
      const startTime = at(start);
      db.insert(appointments)
        .values({
          patientId: p1,
          doctorId: d1,
          startTime,
          endTime: new Date(startTime.getTime() + 30 * 60_000),
          type: "Retorno",
          status,
          createdAt: at(created),
          updatedAt: at(created),
        })
        .run();
    };
    appt("2025-02-20T13:00:00Z", "2025-02-10T13:00:00Z"); // this month, waited 10 days
    appt("2025-02-27T13:00:00Z", "2025-02-25T13:00:00Z", "completed"); // this month, 2 days
    appt("2025-01-20T13:00:00Z", "2025-01-19T13:00:00Z", "cancelled"); // last month; cancelled: no wait
    appt("2025-01-10T13:00:00Z", "2025-01-05T13:00:00Z", "confirmed"); // last month, 5 days
    appt("2025-03-05T13:00:00Z", "2025-02-20T13:00:00Z"); // next month (future): no wait yet
    appt("2024-11-01T13:00:00Z", "2024-10-01T13:00:00Z", "completed"); // older than 90 days
    appt("2025-02-15T13:00:00Z", "2025-02-16T13:00:00Z", "completed"); // this month; entered after it happened
    appt("2025-03-01T01:30:00Z", "2025-02-28T01:30:00Z"); // SP 28 Feb 22:30 → this month, 1 day
    appt("2025-01-31T23:00:00Z", "2025-01-30T23:00:00Z"); // SP 31 Jan 20:00 → last month, 1 day

    const surgery = (
      stage: PipelineStage,
      scheduled: string,
      billing: { receivableStatus?: "realizado" | "faturado" | "pendente" | "glosa" | "pago"; billedAt?: Date } = {},
    ) =>
      db.insert(surgeries)
        .values({ patientId: p1, doctorId: d1, surgeryType: "Artrodese", scheduledDate: at(scheduled), currentStage: stage, ...billing })
        .run();
    surgery("concluido", "2025-02-10T12:00:00Z", { receivableStatus: "pago" }); // billed
    surgery("concluido", "2025-02-01T03:00:00Z", { receivableStatus: "realizado", billedAt: at("2025-02-05T12:00:00Z") }); // billed
    surgery("concluido", "2025-01-15T12:00:00Z", { receivableStatus: "realizado" }); // performed, not billed
    surgery("concluido", "2025-02-20T12:00:00Z"); // performed, not billed
    surgery("negado", "2025-01-20T12:00:00Z");
    surgery("cancelado", "2025-03-01T02:30:00Z"); // SP 28 Feb 23:30 → this month
    surgery("agendado", "2025-03-10T12:00:00Z"); // next month
    surgery("aguarda_docs", "2024-12-01T12:00:00Z");
    surgery("aguarda_docs", "2025-01-31T03:00:00Z"); // SP 31 Jan 00:00 → last month
    surgery("opme_cotacao", "2025-02-15T12:00:00Z", { receivableStatus: "glosa" }); // not performed: ignored by billing

    const tx = (type: "receita" | "despesa", amountCents: number, transactionDate: string) =>
      db.insert(financialTransactions).values({ type, amountCents, transactionDate, category: "Consulta" }).run();
    tx("receita", 100_000, "2025-02-01"); // first day of this month
    tx("receita", 50_050, "2025-02-28"); // today in São Paulo
    tx("receita", 70_000, "2025-01-31"); // last day of last month
    tx("receita", 99_999, "2025-03-01"); // "today" in UTC, tomorrow in São Paulo: neither month
    tx("despesa", 30_000, "2025-02-10"); // an expense is not revenue
    tx("receita", 12_345, "2024-12-31"); // two months ago
  });

  it("counts patients, appointments and surgeries with São Paulo month trends", () => {
    const stats = getDashboardStats({ now: NOW, includeRevenue: false });
    expect(stats.monthStart).toBe("2025-02-01");
    expect(stats.patients).toEqual({ total: 4, trend: { thisMonth: 2, lastMonth: 1, percent: 100 } });
    expect(stats.appointments).toEqual({ total: 9, trend: { thisMonth: 4, lastMonth: 3, percent: 33.3 } });
    expect(stats.surgeries).toEqual({ total: 10, trend: { thisMonth: 5, lastMonth: 3, percent: 66.7 } });
  });

  it("sums this month's income only, from the 1st to the last day in São Paulo", () => {
    const stats = getDashboardStats({ now: NOW, includeRevenue: true });
    // (150 050 − 70 000) / 70 000 = 114.357… %
    expect(stats.revenue).toEqual({ monthCents: 150_050, trend: { thisMonth: 150_050, lastMonth: 70_000, percent: 114.4 } });
    expect(getDashboardStats({ now: NOW, includeRevenue: false }).revenue).toBeNull();
  });

  it("computes success and billing rates from pipeline stages", () => {
    const stats = getDashboardStats({ now: NOW, includeRevenue: false });
    // 4 concluded of 6 finished (4 concluido + 1 negado + 1 cancelado).
    expect(stats.successRate).toEqual({ part: 4, whole: 6, percent: 66.7 });
    // 2 billed (pago; billed_at set) of 4 performed; the glosa on an unperformed surgery does not count.
    expect(stats.billingRate).toEqual({ part: 2, whole: 4, percent: 50 });
  });

  it("averages booking-to-appointment days over the last 90 days, without cancelled or future ones", () => {
    const stats = getDashboardStats({ now: NOW, includeRevenue: false });
    // 10 + 2 + 5 + 1 + 1 days over 5 appointments.
    expect(stats.averageWait).toEqual({ days: 3.8, appointments: 5, windowDays: 90 });
  });

  it("counts surgeries in every pipeline stage, in board order", () => {
    const stats = getDashboardStats({ now: NOW, includeRevenue: false });
    expect(stats.stageDistribution.map((s) => [s.stage, s.count])).toEqual([
      ["aguarda_docs", 2],
      ["enviado_pre_aut", 0],
      ["aguardando_parecer", 0],
      ["opme_cotacao", 1],
      ["aprovado", 0],
      ["negado", 1],
      ["agendado", 1],
      ["em_cirurgia", 0],
      ["concluido", 4],
      ["cancelado", 1],
    ]);
    expect(stats.stageDistribution.find((s) => s.stage === "opme_cotacao")?.label).toBe("OPME em Cotação");
  });

  it("moves with the clock: a later month has falling trends and no base for patients", () => {
    const later = new Date("2025-04-15T15:00:00.000Z"); // São Paulo April; last month is March
    const stats = getDashboardStats({ now: later, includeRevenue: true });
    expect(stats.patients.trend).toEqual({ thisMonth: 0, lastMonth: 0, percent: null });
    expect(stats.appointments.trend).toEqual({ thisMonth: 0, lastMonth: 1, percent: -100 });
    expect(stats.surgeries.trend).toEqual({ thisMonth: 0, lastMonth: 1, percent: -100 });
    expect(stats.revenue).toEqual({ monthCents: 0, trend: { thisMonth: 0, lastMonth: 99_999, percent: -100 } });
    // Window from 15 Jan: 10 + 2 + 13 (the 5 Mar appointment is past now) + 1 + 1 over 5.
    expect(stats.averageWait).toEqual({ days: 5.4, appointments: 5, windowDays: 90 });
  });
});

describe("the /dashboard loader", () => {
  const call = (cookie: string) =>
    loader(routeArgs(getRequest("/dashboard", { cookie })));

  it("computes revenue for an admin only", async () => {
    const first = await createAccount({ name: "Admin", email: "admin@dash.test", password: "senha-forte-123" });
    expect(first.role).toBe("admin");
    const adminCookie = await sessionCookie(first.id);
    const doctor = await loginAs("doctor", { email: "doctor@dash.test" });

    const asAdmin = await call(adminCookie);
    expect(asAdmin.stats?.revenue).not.toBeNull();
    expect(asAdmin.stats?.patients.total).toBe(4);
    expect(asAdmin.quickLinks.map((l) => l.to)).toEqual(["/appointments", "/patients", "/doctors", "/surgeries"]);

    const asDoctor = await call(doctor.cookie);
    expect(asDoctor.stats?.revenue).toBeNull();
    expect(asDoctor.stats?.surgeries.total).toBe(10);
  });

  it("refuses an account without a role", async () => {
    const pending = await loginAs(null, { email: "pending@dash.test" });
    await expect(call(pending.cookie)).rejects.toMatchObject({ init: { status: 403 } });
  });
});

describe("counters kept by the database", () => {
  /** The figures that read maintained counters, recomputed from every row. */
  function recomputed() {
    const row = sqlite
      .prepare(
        `select count(*) as total,
                count(case when current_stage in ('concluido', 'negado', 'cancelado') then 1 end) as finished,
                count(case when current_stage = 'concluido' then 1 end) as performed,
                count(case when current_stage = 'concluido' and (receivable_status in ('faturado', 'glosa', 'pago') or billed_at is not null) then 1 end) as billed
           from surgeries`,
      )
      .get() as { total: number; finished: number; performed: number; billed: number };
    const stages = sqlite.prepare("select current_stage as stage, count(*) as n from surgeries group by current_stage").all() as Array<{ stage: string; n: number }>;
    return {
      surgeries: row.total,
      patients: (sqlite.prepare("select count(*) from patients").pluck().get() as number),
      appointments: (sqlite.prepare("select count(*) from appointments").pluck().get() as number),
      successRate: ratio(row.performed, row.finished),
      billingRate: ratio(row.billed, row.performed),
      stages: Object.fromEntries(PIPELINE_STAGE_IDS.map((id) => [id, stages.find((s) => s.stage === id)?.n ?? 0])),
    };
  }
  const shown = () => {
    const stats = getDashboardStats({ now: NOW, includeRevenue: false });
    return {
      surgeries: stats.surgeries.total,
      patients: stats.patients.total,
      appointments: stats.appointments.total,
      successRate: stats.successRate,
      billingRate: stats.billingRate,
      stages: Object.fromEntries(stats.stageDistribution.map((s) => [s.stage, s.count])),
    };
  };

  it("equal a full recomputation after random inserts, moves, billing changes and deletes", () => {
    clearClinicalRows();
    const patient = addPatient("Rui", at("2025-02-01T12:00:00Z"));
    const doctor = insertDoctor("Dr. Y", { specialty: "Neuro", crm: "2" });
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const statuses = [null, "realizado", "faturado", "pendente", "glosa", "pago"] as const;
    const ids: number[] = [];
    for (let step = 0; step < 200; step++) {
      const action = random(10);
      if (action < 4 || ids.length === 0) {
        const { lastInsertRowid } = db
          .insert(surgeries)
          .values({
            patientId: patient,
            doctorId: doctor,
            surgeryType: "Artrodese",
            scheduledDate: at("2025-02-10T12:00:00Z"),
            currentStage: PIPELINE_STAGE_IDS[random(PIPELINE_STAGE_IDS.length)],
            receivableStatus: statuses[random(statuses.length)],
            billedAt: random(4) === 0 ? at("2025-02-11T12:00:00Z") : null,
          })
          .run();
        ids.push(Number(lastInsertRowid));
      } else {
        const id = ids[random(ids.length)];
        if (action < 6) db.update(surgeries).set({ currentStage: PIPELINE_STAGE_IDS[random(PIPELINE_STAGE_IDS.length)] }).where(eq(surgeries.id, id)).run();
        else if (action < 8) db.update(surgeries).set({ receivableStatus: statuses[random(statuses.length)] }).where(eq(surgeries.id, id)).run();
        else if (action < 9) db.update(surgeries).set({ billedAt: random(2) ? null : at("2025-02-12T12:00:00Z") }).where(eq(surgeries.id, id)).run();
        else {
          db.delete(surgeries).where(eq(surgeries.id, id)).run();
          ids.splice(ids.indexOf(id), 1);
        }
      }
      if (step % 50 === 49) expect(shown()).toEqual(recomputed());
    }
    expect(shown().billingRate.whole).toBeGreaterThan(0);
    expect(shown()).toEqual(recomputed());
  }, 30_000);

  it("no figure scans a big table", () => {
    const plans: string[] = [];
    const prepare = sqlite.prepare.bind(sqlite);
    const spy = vi.spyOn(sqlite, "prepare").mockImplementation((source: string) => {
      if (/^\s*select/i.test(source)) plans.push(...(prepare(`explain query plan ${source}`).all(...new Array((source.match(/\?/g) ?? []).length).fill(0)) as Array<{ detail: string }>).map((r) => r.detail));
      return prepare(source);
    });
    try {
      getDashboardStats({ now: NOW, includeRevenue: true });
    } finally {
      spy.mockRestore();
    }
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.filter((detail) => /^SCAN (patients|appointments|surgeries|financial_transactions)\b/.test(detail))).toEqual([]);
  });
});
