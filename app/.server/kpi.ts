/**
 * Server side of the KPI screens (docs/adding-a-screen.md, 'KPI screen'): the query of a screen
 * (period and filters from the URL), the report cache, the filters' options and the CSV export.
 */
import { eq } from "drizzle-orm";
import { data } from "react-router";
import { doctors, payers } from "~db/schema";
import { listDoctorFilterOptions } from "~/models/doctor-options.server";
import { optionsOf } from "~/models/filter-options.server";
import { listPayerFilterOptions } from "~/models/surgery.server";
import { recordAudit } from "./audit";
import { type SessionUser, assertCan, requirePermission } from "./auth";
import { csvResponse } from "./csv";
import { cachedUntilWrite } from "./data-cache";
import { db } from "./db";
import { requireFinanceAccess } from "./finance-access";
import { routeUrl } from "./route-url";
import { sentAsJson } from "./sent-as-json";
import { toCsv } from "~/lib/csv";
import { KPI_FIGURES_TABLE, type KpiFilterOption, type KpiReport, kpiFiguresCsvRows, kpiTableCsvRows } from "~/lib/kpi";
import { type ParsedKpiPeriod, kpiPeriodQuery, parseKpiPeriod } from "~/lib/kpi-period";
import { parseId } from "~/lib/list-params";
import { registryOption } from "~/lib/form-options";
import { can } from "~/lib/permissions";

/** The period and filters of a KPI screen, read from its URL (never throws). */
export interface KpiQuery extends ParsedKpiPeriod {
  /** `medico`: one doctor's figures, or null for all. */
  doctorId: number | null;
  /** `pagador`: one payer's figures, or null for all. */
  payerId: number | null;
}

export function readKpiQuery(url: URL, now: Date = new Date()): KpiQuery {
  return {
    ...parseKpiPeriod(url.searchParams, now),
    doctorId: parseId(url.searchParams.get("medico")),
    payerId: parseId(url.searchParams.get("pagador")),
  };
}

/** The query string of the screen as it is filtered (for export links). */
export function kpiQueryString(query: KpiQuery): string {
  return kpiPeriodQuery(query, {
    medico: query.doctorId ? String(query.doctorId) : null,
    pagador: query.payerId ? String(query.payerId) : null,
  });
}

/**
 * A screen's report for its period and filters, computed once and kept until the next write to
 * the database (like the dashboard): between writes a view or an export costs a lookup. `scope`
 * separates what differs by user (e.g. 'admin' when financial figures are included).
 */
export function cachedKpiReport<T>(screen: string, query: KpiQuery, scope: string, compute: () => T): T {
  const key = ["kpi", screen, scope, query.period.from, query.period.to, query.doctorId ?? "", query.payerId ?? ""].join(":");
  return cachedUntilWrite(key, compute);
}

/**
 * Options of the doctor and payer selects (active first, then by name; at most 500 each), made from
 * rows kept until the next write. A period's report may be about an inactive payer or doctor, so
 * both are offered, marked.
 */
export function kpiFilterOptions(which: { doctors?: boolean; payers?: boolean }): { doctors: readonly KpiFilterOption[]; payers: readonly KpiFilterOption[] } {
  const doctorOptions = () => optionsOf(listDoctorFilterOptions(), registryOption);
  const payerOptions = () => optionsOf(listPayerFilterOptions(), registryOption);
  return { doctors: which.doctors ? doctorOptions() : [], payers: which.payers ? payerOptions() : [] };
}

/** Name of one doctor / payer for a report's subtitle; null when the id matches nothing. */
export function doctorName(id: number | null): string | null {
  return id ? (db.select({ name: doctors.name }).from(doctors).where(eq(doctors.id, id)).get()?.name ?? null) : null;
}
export function payerName(id: number | null): string | null {
  return id ? (db.select({ name: payers.name }).from(payers).where(eq(payers.id, id)).get()?.name ?? null) : null;
}

/**
 * One table of a report (or its figures: `tabela=indicadores`) as CSV for Brazilian Excel, the
 * same values the screen shows; 404 for a table the report does not have. The export, with its
 * period and filters, goes to the audit log. The caller checks permissions first.
 */
export function kpiCsvExport(options: {
  user: SessionUser;
  /** The screen's slug ('operacionais'), used in the file name and the audit entry. */
  screen: string;
  query: KpiQuery;
  report: KpiReport;
  tableId: string | null;
}): Response {
  const { user, screen, query, report } = options;
  const tableId = options.tableId || KPI_FIGURES_TABLE;
  const table = tableId === KPI_FIGURES_TABLE ? null : report.tables.find((t) => t.id === tableId);
  if (table === undefined) throw data({ error: "Tabela não encontrada." }, { status: 404 });
  const { headers, rows } = table ? kpiTableCsvRows(table) : kpiFiguresCsvRows(report.figures);
  recordAudit(db, {
    userId: user.id,
    action: "export",
    entity: `kpi-${screen}`,
    changes: { format: "csv", table: tableId, from: query.period.from, to: query.period.to, doctorId: query.doctorId, payerId: query.payerId },
  });
  return csvResponse(`kpis-${screen}-${tableId}-${query.period.from}-a-${query.period.to}`, toCsv(headers, rows));
}

/**
 * What a KPI screen is, once, for its page and its CSV export alike (declared in
 * app/.server/kpi-screens.ts): who may see it, the filters it offers, what its cached report
 * depends on besides the query, and how the report is built.
 */
export interface KpiScreen {
  /** The slug: /kpis/<screen>, the cache key, the export's file name and audit entity. */
  screen: string;
  /** 'kpis' (default): any role with kpis:view (SPEC §6); 'finance': admins only, anyone else goes to /dashboard. */
  guard?: "kpis" | "finance";
  /** The doctor / payer selects of the screen's filter form. */
  filters?: { doctors?: boolean; payers?: boolean };
  /** What else the cached report depends on (see `cachedKpiReport`), read at each request; "" by default. */
  scope?: () => string;
  build: (query: KpiQuery) => KpiReport;
}

async function kpiScreenAccess(request: Request, screen: KpiScreen): Promise<SessionUser> {
  return screen.guard === "finance" ? requireFinanceAccess(request) : requirePermission(request, "kpis", "view");
}

/** The report, kept until a write and sent to the browser as JSON made once (its figures and tables are hundreds of values). */
function kpiScreenReport(screen: KpiScreen, query: KpiQuery): KpiReport {
  return cachedKpiReport(screen.screen, query, screen.scope?.() ?? "", () => sentAsJson(screen.build(query)));
}

/**
 * The loader of a KPI screen: its guard first, the period and filters from the URL, the cached
 * report, the options of its filter selects (empty lists for the filters it does not offer) and,
 * for those who may export, the query string of the export links (`kpiExportLinks` on the page).
 */
export async function kpiScreenLoader(request: Request, screen: KpiScreen) {
  const user = await kpiScreenAccess(request, screen);
  const query = readKpiQuery(routeUrl(request));
  const report = kpiScreenReport(screen, query);
  const { doctors, payers } = kpiFilterOptions(screen.filters ?? {});
  return { query, report, doctors, payers, exportQuery: can(user, "kpis", "export") ? kpiQueryString(query) : null };
}

/** The loader of a KPI screen's CSV export (/kpis/<screen>/export.csv?…&tabela=): the screen's guard, kpis:export, the same report. */
export async function kpiExportLoader(request: Request, screen: KpiScreen): Promise<Response> {
  const user = await kpiScreenAccess(request, screen);
  assertCan(user, "kpis", "export");
  const url = routeUrl(request);
  const query = readKpiQuery(url);
  const report = kpiScreenReport(screen, query);
  return kpiCsvExport({ user, screen: screen.screen, query, report, tableId: url.searchParams.get("tabela") });
}
