/**
 * The KPI screens (docs/adding-a-screen.md, 'KPI screen'): each declared once here and served by
 * `kpiScreenLoader` (its page) and `kpiExportLoader` (its CSV export) from app/.server/kpi.ts.
 */
import { todayIsoInClinic } from "~/lib/dates";
import { financialKpis } from "~/models/kpi-financial.server";
import { metricsKpis } from "~/models/kpi-metricas.server";
import { operationalKpis } from "~/models/kpi-operacionais.server";
import { opmeKpis } from "~/models/kpi-opme.server";
import { surgicalKpis } from "~/models/kpi-surgical.server";
import type { KpiScreen } from "./kpi";

export const KPI_SCREENS = {
  operacionais: {
    screen: "operacionais",
    filters: { doctors: true },
    build: (query) => operationalKpis(query, query),
  },
  metricas: {
    screen: "metricas",
    build: (query) => metricsKpis(query),
  },
  cirurgicos: {
    screen: "cirurgicos",
    filters: { doctors: true, payers: true },
    // Scoped by today: the ANS compliance counts the clocks expired by today.
    scope: () => todayIsoInClinic(),
    build: (query) => surgicalKpis(query, query),
  },
  financeiros: {
    screen: "financeiros",
    // Financial figures: admins only (SPEC §6), checked by the server; anyone else goes to /dashboard.
    guard: "finance",
    filters: { doctors: true, payers: true },
    // Scoped to admins (only they get here) and today (receivables are aged at today while the period runs).
    scope: () => `admin:${todayIsoInClinic()}`,
    build: (query) => financialKpis(query, query),
  },
  opme: {
    screen: "opme",
    filters: { doctors: true, payers: true },
    build: (query) => opmeKpis(query, query),
  },
} satisfies Record<string, KpiScreen>;
