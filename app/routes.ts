import { type RouteConfig, type RouteConfigEntry, index, layout, route } from "@react-router/dev/routes";
import { MASTER_DATA_TABS } from "./lib/master-data-tabs";
import { SCREEN_TITLES } from "./lib/navigation";

const AI_ASSISTANTS = ["dashboard", "triagem", "mensagens", "opme-copilot", "aprovacoes", "rag"];

/**
 * Adds an 'em construção' page (inside the shell) for every screen of the navigation that has no
 * real route among `screens` yet; giving a screen its route removes its placeholder.
 */
function withUnderConstruction(screens: RouteConfigEntry[]): RouteConfigEntry[] {
  const paths = (entries: RouteConfigEntry[], parent: string): string[] =>
    entries.flatMap((entry) => {
      const path = entry.path ? `${parent}/${entry.path}` : parent;
      return [path, ...paths(entry.children ?? [], path)];
    });
  const routed = new Set(paths(screens, ""));
  const pending = [...SCREEN_TITLES.keys()].filter((path) => !routed.has(path));
  return [
    ...screens,
    ...pending.map((path) => route(path.slice(1), "routes/under-construction.tsx", { id: `routes/under-construction${path}` })),
  ];
}

/** SPEC §2 route table. Aliases (/config, /comunicacao …) point at the same module with their own id. */
export default [
  index("routes/index.tsx"),
  route("auth", "routes/auth.tsx"),
  route("logout", "routes/logout.tsx"),
  layout("routes/app-layout.tsx", withUnderConstruction([
    route("dashboard", "routes/dashboard.tsx"),
    route("patients", "routes/patients.tsx"),
    route("patients/:id", "routes/patient.tsx"),
    route("patients/:id/acessos", "routes/patient-access.tsx"),
    route("doctors", "routes/doctors.tsx"),
    route("appointments", "routes/appointments.tsx"),
    route("schedule", "routes/schedule.tsx"),
    route("surgeries", "routes/surgeries.tsx"),
    route("surgeries/:id/honorarios", "routes/surgery-fees.tsx"),
    route("pipeline", "routes/pipeline.tsx"),
    route("pipeline/:id", "routes/pipeline-history.tsx"),
    route("pipeline/:id/negar", "routes/pipeline-deny.tsx"),
    route("pipeline/:id/opme", "routes/pipeline-opme.tsx"),
    route("pipeline/:id/aprovar", "routes/pipeline-opme-approve.tsx"),
    route("tasks", "routes/tasks.tsx"),
    route("financial", "routes/financial.tsx"),
    route("honorarios/medicos", "routes/honorarios-medicos.tsx"),
    route("honorarios/cbhpm", "routes/honorarios-cbhpm.tsx"),
    route("honorarios/pagador", "routes/honorarios-pagador.tsx"),
    route("honorarios/tabelas", "routes/honorarios-tabelas.tsx"),
    route("honorarios/tabelas/importar", "routes/honorarios-tabelas-importar.tsx"),
    route("surgical-groups", "routes/surgical-groups.tsx"),
    route("cirurgico/grupos/neurocirurgia", "routes/neurosurgery.tsx"),
    route("procedures", "routes/procedures.tsx"),
    route("files", "routes/files.tsx"),
    // Cadastros: one screen, the tab in the path (/master-data opens the first tab).
    route("master-data", "routes/master-data.tsx"),
    ...MASTER_DATA_TABS.map((tab) => route(`master-data/${tab}`, "routes/master-data.tsx", { id: `routes/master-data/${tab}` })),
    ...MASTER_DATA_TABS.map((tab) => route(`master-data/${tab}/import`, "routes/master-data-import.tsx", { id: `routes/master-data-import/${tab}` })),
    route("sops", "routes/sops.tsx"),
    route("orders", "routes/orders.tsx"),
    route("referrers", "routes/referrers.tsx"),
    route("settings", "routes/settings.tsx"),
    route("config", "routes/settings.tsx", { id: "routes/config" }),
    route("settings/audit", "routes/settings/audit.tsx"),
    route("settings/backups", "routes/settings/backups.tsx"),
    route("settings/holidays", "routes/settings/holidays.tsx"),
    route("settings/checklists", "routes/settings/checklists.tsx"),
    route("communication", "routes/communication.tsx"),
    route("comunicacao", "routes/communication.tsx", { id: "routes/comunicacao" }),
    route("communication/messages", "routes/communication-messages.tsx"),
    route("comunicacao/mensagens", "routes/communication-messages.tsx", { id: "routes/comunicacao/mensagens" }),
    route("google-calendar", "routes/google-calendar.tsx"),
    route("google/oauth/callback", "routes/google-oauth-callback.tsx"),
    route("google-drive", "routes/google-drive.tsx"),
    route("google-forms", "routes/google-forms.tsx"),
    ...AI_ASSISTANTS.map((slug) => route(`ia/${slug}`, "routes/ia.tsx", { id: `routes/ia/${slug}` })),
    route("financeiro/cirurgias-receber", "routes/financeiro-receber.tsx"),
    route("financeiro/cirurgias-pagas", "routes/financeiro-pagas.tsx"),
    route("financeiro/folhas-sala", "routes/financeiro-folhas.tsx"),
    route("kpis/operacionais", "routes/kpis/operacionais.tsx"),
    route("kpis/metricas", "routes/kpis/metricas.tsx"),
    route("kpis/cirurgicos", "routes/kpis/cirurgicos.tsx"),
    route("kpis/financeiros", "routes/kpis/financeiros.tsx"),
    route("kpis/opme", "routes/kpis/opme.tsx"),
    route("financeiro/folhas-unimed", "routes/financeiro-folhas.tsx", { id: "routes/financeiro-folhas/unimed" }),
    route("financeiro/importar-honorarios", "routes/financeiro-importar.tsx"),
  ])),
  // CSV exports of the lists: the same search and filters as the screen, streamed.
  ...["patients", "doctors", "appointments", "surgeries", "tasks"].map((list) => route(`${list}/export.csv`, `routes/export/${list}.ts`)),
  route("settings/audit/export.csv", "routes/export/audit.ts"),
  route("financial/export.csv", "routes/financial-export.ts"),
  route("cirurgico/grupos/neurocirurgia/export.csv", "routes/neurosurgery-export.ts"),
  // KPI screens: one table (or the figures) of the screen as CSV, same period and filters.
  route("kpis/operacionais/export.csv", "routes/kpis/operacionais-export.ts"),
  route("kpis/metricas/export.csv", "routes/kpis/metricas-export.ts"),
  route("kpis/cirurgicos/export.csv", "routes/kpis/cirurgicos-export.ts"),
  route("kpis/financeiros/export.csv", "routes/kpis/financeiros-export.ts"),
  route("kpis/opme/export.csv", "routes/kpis/opme-export.ts"),
  route("files/:id/download", "routes/files.download.ts"),
  // Fee statements: the multipart upload (a file, or a CSV to preview) and a kept statement's download.
  route("financeiro/importar-honorarios/enviar", "routes/financeiro-importar-enviar.ts"),
  route("financeiro/importar-honorarios/:id/arquivo", "routes/financeiro-importar-arquivo.ts"),
  // LGPD art. 18: the patient's complete data as a ZIP (admins).
  route("patients/:id/export.zip", "routes/patient-export.ts"),
  // TISS Guias de Honorários (XML): one surgery's guide, and a payer's lote of at most 100.
  route("surgeries/:id/honorarios/tiss.xml", "routes/tiss-surgery.ts"),
  route("financeiro/cirurgias-receber/tiss.xml", "routes/tiss-lote.ts"),
  ...MASTER_DATA_TABS.map((tab) => route(`master-data/${tab}/export.csv`, "routes/export/master-data.ts", { id: `routes/export/master-data/${tab}` })),
  route("api/patients", "routes/api/patients.ts"),
  route("api/patients/:id", "routes/api/patient.ts"),
  route("api/doctors", "routes/api/doctors.ts"),
  route("api/comms/templates", "routes/api/comms-templates.ts"),
  route("api/comms/send", "routes/api/comms-send.ts"),
  route("api/comms/kpis", "routes/api/comms-kpis.ts"),
  route("api/comms/messages", "routes/api/comms-messages.ts"),
  route("api/comms/rules", "routes/api/comms-rules.ts"),
  // Called by Meta: signature-authenticated, no cookies, exempt from origin checks (see the module).
  route("api/comms/webhook", "routes/api/comms-webhook.ts"),
  route("api/surgeries", "routes/api/surgeries.ts"),
  route("api/google/auth/status", "routes/api/google-auth-status.ts"),
  route("api/google/auth/start", "routes/api/google-auth-start.ts"),
  route("api/google/auth/disconnect", "routes/api/google-auth-disconnect.ts"),
  route("api/google/calendar/list", "routes/api/google-calendar-list.ts"),
  route("api/google/drive/upload", "routes/api/google-drive-upload.ts"),
  route("api/google/drive/send-document", "routes/api/google-drive-send-document.ts"),
  route("api/financeiro/cirurgias-a-receber", "routes/api/financeiro-receber.ts"),
  route("api/financeiro/cirurgias-a-receber/:id", "routes/api/financeiro-receber-item.ts"),
  route("api/financeiro/resumo", "routes/api/financeiro-resumo.ts"),
  route("api/financeiro/cirurgias-pagas", "routes/api/financeiro-pagas.ts"),
  route("api/honorarios/medicos", "routes/api/honorarios-medicos.ts"),
  route("api/honorarios/cbhpm", "routes/api/honorarios-cbhpm.ts"),
  route("api/honorarios/pagador", "routes/api/honorarios-pagador.ts"),
  route("api/honorarios/tabelas", "routes/api/honorarios-tabelas.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
