/**
 * Walks EVERY route of app/routes.ts — its loader (GET) and each intent of its action (POST) — as
 * anonymous, an account without a role, a doctor, staff and an admin, and checks the SPEC §6
 * answer: allowed → the page, data or a form's answer (never 401/403/5xx); refused → a redirect
 * to /auth (anonymous pages), 401 (anonymous API) or 403 (signed in).
 *
 * HOW TO ADD A ROUTE: give its route id (the `id` in routes.ts, else its file without the
 * extension, e.g. "routes/tasks") an entry in ROUTE_RULES below: who may view it, and each intent of
 * its action with who may run it. A route without an entry, an action without intents, or an intent
 * the action does not know ('Ação desconhecida') fails this test.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { type SignedIn, formRequest, getRequest, insertPatient, loginAs, routeArgs, sessionCookie } from "../support/fixtures";

type Who = "anonymous" | "pending" | "doctor" | "staff" | "admin";
const WHO: readonly Who[] = ["anonymous", "pending", "doctor", "staff", "admin"];

// SPEC §6, by hand (not read from app/lib/permissions.ts, so the two must agree).
const EVERYONE: readonly Who[] = WHO;
const SIGNED_IN: readonly Who[] = ["pending", "doctor", "staff", "admin"];
const ROLES: readonly Who[] = ["doctor", "staff", "admin"];
const ADMIN_STAFF: readonly Who[] = ["staff", "admin"];
const ADMIN: readonly Who[] = ["admin"];

interface RouteRule {
  /** Who may GET the route. */
  view: readonly Who[];
  /** The status an allowed GET answers with, when it is always the same and not a page (a redirect, a 404). */
  viewStatus?: number;
  /** Each intent of the route's action and who may run it (omit for a route without an action). */
  intents?: Record<string, readonly Who[]>;
  /** The route ends the session: its answer is a redirect to /auth for everyone. */
  signsOut?: boolean;
  /**
   * Not cookie-authenticated (Meta's webhook, authenticated by its signature): every caller, signed
   * in or not, gets the same answer — `viewStatus` to a GET, `actionStatus` to a POST without a
   * valid signature.
   */
  external?: { actionStatus: number };
  /** A refused role (not an account awaiting one) is sent here instead of a 403 (/financial: SPEC §6). */
  refusedRedirect?: string;
}

const crud = (create: readonly Who[], edit: readonly Who[], del: readonly Who[]) => ({ create, update: edit, delete: del });

export const ROUTE_RULES: Record<string, RouteRule> = {
  "routes/index": { view: EVERYONE, viewStatus: 302 },
  "routes/auth": { view: EVERYONE, intents: { login: EVERYONE, signup: EVERYONE } },
  // GET asks to confirm (a signed-in user), POST ends the session of whoever sends it.
  "routes/logout": { view: SIGNED_IN, intents: { logout: EVERYONE }, signsOut: true },
  // The shell: an account still awaiting a role sees the waiting page inside it.
  "routes/app-layout": { view: SIGNED_IN },
  "routes/dashboard": { view: ROLES },
  "routes/patients": { view: ROLES, intents: crud(ADMIN_STAFF, ADMIN_STAFF, ADMIN) },
  "routes/patient": { view: ROLES, intents: { "record-consent": ADMIN_STAFF, anonymise: ADMIN } },
  "routes/patient-export": { view: ADMIN },
  // LGPD: the access report reads the audit trail (admins).
  "routes/patient-access": { view: ADMIN },
  "routes/doctors": { view: ROLES, intents: crud(ADMIN, ADMIN, ADMIN) },
  "routes/appointments": { view: ROLES, intents: crud(ADMIN_STAFF, ADMIN_STAFF, ADMIN) },
  "routes/schedule": { view: ROLES },
  "routes/surgeries": { view: ROLES, intents: crud(ADMIN_STAFF, ADMIN_STAFF, ADMIN) },
  // Moving a card edits the surgery; the denial form is only for those who may move.
  "routes/pipeline": { view: ROLES, intents: { move: ADMIN_STAFF } },
  "routes/pipeline-history": { view: ROLES },
  "routes/pipeline-deny": { view: ADMIN_STAFF, intents: { move: ADMIN_STAFF } },
  // Tasks: any signed-in user with a role has full access, the export included.
  "routes/tasks": {
    view: ROLES,
    intents: {
      ...crud(ROLES, ROLES, ROLES),
      duplicate: ROLES,
      complete: ROLES,
      "subtask-add": ROLES,
      "subtask-toggle": ROLES,
      "subtask-rename": ROLES,
      "subtask-move": ROLES,
      "subtask-remove": ROLES,
    },
  },
  // Uploads are a multipart POST, not an intent: admins and staff (tests/unit/files.test.ts).
  "routes/files": { view: ROLES, intents: { delete: ADMIN } },
  "routes/files.download": { view: ROLES },
  "routes/settings": {
    view: ROLES,
    intents: { "update-general": ADMIN, "update-security": ADMIN, "change-password": ROLES, "set-role": ADMIN },
  },
  "routes/sops": { view: ROLES, intents: crud(ADMIN, ADMIN, ADMIN) },
  "routes/orders": { view: ROLES, intents: crud(ADMIN_STAFF, ADMIN_STAFF, ADMIN_STAFF) },
  "routes/referrers": { view: ROLES, intents: { ...crud(ADMIN, ADMIN, ADMIN), "link-patient": ADMIN, "unlink-patient": ADMIN } },
  "routes/settings/audit": { view: ADMIN, intents: { verify: ADMIN } },
  "routes/settings/backups": { view: ADMIN, intents: { "update-schedule": ADMIN, "backup-now": ADMIN } },
  // CSV exports: admins, unless an area says otherwise.
  "routes/export/patients": { view: ADMIN },
  "routes/export/doctors": { view: ADMIN },
  "routes/export/appointments": { view: ADMIN },
  "routes/export/surgeries": { view: ADMIN },
  "routes/export/audit": { view: ADMIN },
  "routes/export/tasks": { view: ROLES },
  "routes/api/patients": { view: ROLES },
  "routes/api/patient": { view: ROLES },
  "routes/api/doctors": { view: ROLES },
  "routes/communication": {
    view: ROLES,
    intents: {
      send: ADMIN_STAFF,
      reply: ADMIN_STAFF,
      "create-template": ADMIN,
      "update-template": ADMIN,
      "create-rule": ADMIN,
      "update-rule": ADMIN,
      "toggle-rule": ADMIN,
    },
  },
  "routes/communication-messages": { view: ROLES },
  "routes/api/comms-templates": { view: ROLES },
  "routes/api/comms-kpis": { view: ROLES },
  "routes/api/comms-messages": { view: ROLES },
  "routes/api/comms-rules": { view: ROLES },
  // GET is not a method of the send endpoint (405 to anyone); the POST takes JSON, so a form is a 415.
  "routes/api/comms-send": { view: EVERYONE, viewStatus: 405, intents: { send: ADMIN_STAFF } },
  // Meta's webhook: no session; without the verify token or a valid signature, 403 to anyone.
  "routes/api/comms-webhook": { view: EVERYONE, viewStatus: 403, intents: { event: EVERYONE }, external: { actionStatus: 403 } },
  "routes/api/surgeries": { view: ROLES },
  // Google: the pages for every role; connecting, disconnecting and the calendar settings are the administrator's.
  "routes/google-calendar": { view: ROLES, intents: { disconnect: ADMIN } },
  "routes/google-oauth-callback": { view: ROLES },
  "routes/api/google-auth-status": { view: ROLES },
  "routes/api/google-auth-start": { view: ADMIN },
  "routes/api/google-auth-disconnect": { view: EVERYONE, viewStatus: 405, intents: { disconnect: ADMIN } },
  "routes/api/google-calendar-list": { view: ROLES },
  // Uploads are a multipart POST, not an intent: admins and staff (tests/unit/google.test.ts).
  "routes/google-drive": { view: ROLES, intents: { disconnect: ADMIN } },
  "routes/google-forms": { view: ROLES, intents: { create: ADMIN_STAFF, disconnect: ADMIN } },
  "routes/api/google-drive-upload": { view: EVERYONE, viewStatus: 405, intents: { upload: ADMIN_STAFF } },
  "routes/api/google-drive-send-document": { view: EVERYONE, viewStatus: 405, intents: { send: ADMIN_STAFF } },
  // Receivables (ADR 0019): every role reads (a doctor only their own surgeries), admins write.
  "routes/financeiro-receber": {
    view: ROLES,
    intents: { bill: ADMIN, pending: ADMIN, glosa: ADMIN, pay: ADMIN, appeal: ADMIN, reopen: ADMIN, delete: ADMIN },
  },
  "routes/financeiro-pagas": { view: ROLES },
  "routes/financeiro-folhas": { view: ROLES },
  "routes/financeiro-folhas/unimed": { view: ROLES },
  // Fee statements (ADR 0019): staff read the list, admins import, doctors are refused. The upload is a
  // multipart POST to its own route (a form POST is refused as not multipart once permitted).
  "routes/financeiro-importar": { view: ADMIN_STAFF, intents: { apply: ADMIN, discard: ADMIN } },
  "routes/financeiro-importar-enviar": { view: EVERYONE, intents: { upload: ADMIN, preview: ADMIN } },
  "routes/financeiro-importar-arquivo": { view: ADMIN_STAFF, viewStatus: 404 },
  // KPI screens: every role (SPEC §6); their CSV exports, admins (the area's export rule).
  "routes/kpis/operacionais": { view: ROLES },
  "routes/kpis/operacionais-export": { view: ADMIN },
  "routes/kpis/metricas": { view: ROLES },
  "routes/kpis/metricas-export": { view: ADMIN },
  "routes/kpis/cirurgicos": { view: ROLES },
  "routes/kpis/cirurgicos-export": { view: ADMIN },
  "routes/kpis/opme": { view: ROLES },
  "routes/kpis/opme-export": { view: ADMIN },
  // Financial KPIs: admins only, like /financial; anyone else is sent to /dashboard.
  "routes/kpis/financeiros": { view: ADMIN, refusedRedirect: "/dashboard" },
  "routes/kpis/financeiros-export": { view: ADMIN, refusedRedirect: "/dashboard" },
  "routes/api/financeiro-receber": { view: ROLES },
  // No receivable 1 in the walk's database: 404 to whoever may read; a form POST is not PUT/DELETE (405).
  "routes/api/financeiro-receber-item": { view: ROLES, viewStatus: 404, intents: { post: ROLES } },
  "routes/api/financeiro-resumo": { view: ROLES },
  "routes/api/financeiro-pagas": { view: ROLES },
  "routes/not-found": { view: EVERYONE, viewStatus: 404 },
  // Finance: admins only; any other role is sent to /dashboard with SPEC §8's message.
  "routes/financial": { view: ADMIN, intents: crud(ADMIN, ADMIN, ADMIN), refusedRedirect: "/dashboard" },
  "routes/financial-export": { view: ADMIN, refusedRedirect: "/dashboard" },
  // Surgical catalogue screens: read-only, any role (its report included).
  "routes/surgical-groups": { view: ROLES },
  "routes/neurosurgery": { view: ROLES },
  "routes/neurosurgery-export": { view: ROLES },
  "routes/procedures": { view: ROLES },
  // OPME of a surgery: everyone with a role reads it; admins and staff (who move cards) write it.
  "routes/pipeline-opme": {
    view: ROLES,
    intents: { "add-item": ADMIN_STAFF, "remove-item": ADMIN_STAFF, "add-quote": ADMIN_STAFF, "remove-quote": ADMIN_STAFF, choose: ADMIN_STAFF },
  },
  "routes/pipeline-opme-approve": { view: ADMIN_STAFF, intents: { move: ADMIN_STAFF } },
  // Configurações → Feriados and → Checklists: any role reads, admins write.
  "routes/settings/holidays": { view: ROLES, intents: { create: ADMIN, delete: ADMIN } },
  "routes/settings/checklists": { view: ROLES, intents: { save: ADMIN } },
  // Honorários reports: every role reads (a doctor their own row); the per-payer one is clinic money (admins, staff); admins import.
  "routes/honorarios-medicos": { view: ROLES },
  "routes/honorarios-cbhpm": { view: ROLES },
  "routes/honorarios-pagador": { view: ADMIN_STAFF },
  "routes/honorarios-tabelas": { view: ROLES },
  "routes/honorarios-tabelas-importar": { view: ADMIN, intents: { preview: ADMIN, apply: ADMIN } },
  "routes/api/honorarios-medicos": { view: ROLES },
  "routes/api/honorarios-cbhpm": { view: ROLES },
  "routes/api/honorarios-pagador": { view: ADMIN_STAFF },
  "routes/api/honorarios-tabelas": { view: ROLES },
  // TISS Guias de Honorários (XML downloads): admins and staff.
  "routes/tiss-surgery": { view: ADMIN_STAFF },
  "routes/tiss-lote": { view: ADMIN_STAFF },
  // A surgery's honorários: every role reads (a doctor only their own lines), admins write.
  "routes/surgery-fees": {
    view: ROLES,
    intents: {
      "add-procedure": ADMIN,
      "remove-procedure": ADMIN,
      "save-team": ADMIN,
      "save-settings": ADMIN,
      recompute: ADMIN,
      "override-line": ADMIN,
      "restore-line": ADMIN,
    },
  },
};
ROUTE_RULES["routes/comunicacao"] = ROUTE_RULES["routes/communication"];
ROUTE_RULES["routes/comunicacao/mensagens"] = ROUTE_RULES["routes/communication-messages"];
// Aliases and generated routes.
ROUTE_RULES["routes/config"] = ROUTE_RULES["routes/settings"];
for (const slug of ["dashboard", "triagem", "mensagens", "opme-copilot", "aprovacoes", "rag"]) ROUTE_RULES[`routes/ia/${slug}`] = { view: ROLES };
// Cadastros: one module per kind of page, one route per tab.
ROUTE_RULES["routes/master-data"] = { view: ROLES, intents: crud(ADMIN, ADMIN, ADMIN) };
for (const tab of ["payers", "hospitals", "codes", "suppliers"]) {
  ROUTE_RULES[`routes/master-data/${tab}`] = ROUTE_RULES["routes/master-data"];
  ROUTE_RULES[`routes/master-data-import/${tab}`] = { view: ADMIN, intents: { preview: ADMIN, apply: ADMIN } };
  ROUTE_RULES[`routes/export/master-data/${tab}`] = { view: ADMIN };
}

interface WalkedRoute {
  id: string;
  path: string;
  file: string;
}

function flatten(entries: RouteConfigEntry[], parent = ""): WalkedRoute[] {
  return entries.flatMap((entry) => {
    const own = entry.path ? `${parent}/${entry.path}` : parent;
    const id = entry.id ?? entry.file.replace(/\.[^.]+$/, "");
    return [{ id, path: own || "/", file: entry.file }, ...flatten(entry.children ?? [], own)];
  });
}

const ROUTES = flatten(routes as RouteConfigEntry[]);
const ruleOf = (id: string) => ROUTE_RULES[id];

interface RouteModule {
  loader?: (args: never) => unknown;
  action?: (args: never) => unknown;
}

interface Outcome {
  status: number;
  location: string | null;
  toast: string | null;
}

async function outcomeOf(call: () => unknown): Promise<Outcome> {
  const read = (value: unknown): Outcome => {
    if (value instanceof Response) return { status: value.status, location: value.headers.get("Location"), toast: null };
    const maybe = value as { type?: string; init?: { status?: number; headers?: HeadersInit } | null; data?: { toast?: { message?: string } | null } } | null;
    if (maybe?.type === "DataWithResponseInit") {
      return { status: maybe.init?.status ?? 200, location: new Headers(maybe.init?.headers).get("Location"), toast: maybe.data?.toast?.message ?? null };
    }
    return { status: 200, location: null, toast: null };
  };
  try {
    return read(await call());
  } catch (error) {
    if (error instanceof Response || (error as { type?: string })?.type === "DataWithResponseInit") return read(error);
    return { status: 500, location: null, toast: String(error) };
  }
}

const people: Partial<Record<Who, SignedIn>> = {};
const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), "sinapse-walk-backups-"));

beforeAll(async () => {
  people.admin = await loginAs("admin");
  people.staff = await loginAs("staff");
  people.doctor = await loginAs("doctor");
  people.pending = await loginAs(null);
  insertPatient("Paciente da Caminhada");
  process.env.BACKUP_DIR = backupDir; // 'backup-now' as admin writes a real backup
  process.env.DOCUMENTS_DIR = path.join(backupDir, "none");
});

/** A cookie for `who`: a fresh session for a logout (which ends the session it is given). */
async function cookieOf(who: Who, fresh = false) {
  const person = people[who];
  if (!person) return "";
  return fresh ? sessionCookie(person.id) : person.cookie;
}

function judge(who: Who, allowed: boolean, outcome: Outcome, isApi: boolean, rule: RouteRule, expectedStatus?: number): string | null {
  const { status, location } = outcome;
  if (status >= 500) return `${status} ${outcome.toast ?? ""}`;
  if (rule.external) return status === expectedStatus ? null : `answered ${status}, expected ${expectedStatus} whoever asks`;
  if (allowed) {
    if (status === 401 || status === 403) return `refused (${status}) but SPEC §6 allows it`;
    if (who !== "anonymous" && !rule.signsOut && status === 302 && location?.startsWith("/auth")) return "sent to /auth while signed in";
    if (expectedStatus !== undefined && status !== expectedStatus) return `answered ${status}, expected ${expectedStatus}`;
    return null;
  }
  if (who === "anonymous") {
    if (isApi ? status === 401 : status === 302 && location?.startsWith("/auth")) return null;
    return `answered ${status} ${location ?? ""}, expected ${isApi ? "401" : "a redirect to /auth"}`;
  }
  if (rule.refusedRedirect && who !== "pending") {
    return status === 302 && location === rule.refusedRedirect ? null : `answered ${status} ${location ?? ""}, expected a redirect to ${rule.refusedRedirect}`;
  }
  return status === 403 ? null : `answered ${status} ${location ?? ""}, expected 403`;
}

describe("permission walk over app/routes.ts", () => {
  it("has a rule for every route (add one to ROUTE_RULES for a new route)", () => {
    const missing = ROUTES.filter((r) => !ruleOf(r.id)).map((r) => `${r.id} (${r.path})`);
    expect(missing, "routes without an entry in ROUTE_RULES").toEqual([]);
    expect(ROUTES.length).toBeGreaterThan(20);
  });

  it("answers every loader and every intent as SPEC §6 says, for every kind of user", { timeout: 240_000 }, async () => {
    const failures: string[] = [];
    let checks = 0;
    for (const route of ROUTES) {
      const rule = ruleOf(route.id);
      if (!rule) continue;
      const mod = (await import(/* @vite-ignore */ path.resolve(import.meta.dirname, "../../app", route.file))) as RouteModule;
      const url = route.path.replace(":id", "1").replace(/\*$/, "x/y");
      const params = { id: "1", "*": "x/y" };
      const isApi = url.startsWith("/api/");

      if (mod.loader) {
        for (const who of WHO) {
          const outcome = await outcomeOf(async () => mod.loader!(routeArgs(getRequest(url, { cookie: await cookieOf(who) }), params)));
          const problem = judge(who, rule.view.includes(who), outcome, isApi, rule, rule.viewStatus);
          checks += 1;
          if (problem) failures.push(`GET ${url} [${route.id}] as ${who}: ${problem}`);
        }
      }

      if (mod.action && !rule.intents) failures.push(`${route.id} has an action: list its intents in ROUTE_RULES`);
      if (!mod.action && rule.intents) failures.push(`${route.id} has no action but ROUTE_RULES lists intents`);
      if (!mod.action || !rule.intents) continue;
      for (const [name, allowedTo] of Object.entries(rule.intents)) {
        for (const who of WHO) {
          const cookie = await cookieOf(who, route.id === "routes/logout");
          const outcome = await outcomeOf(() => mod.action!(routeArgs(formRequest(url, { intent: name }, { cookie }), params)));
          const allowed = allowedTo.includes(who);
          const problem = judge(who, allowed, outcome, isApi, rule, rule.external?.actionStatus);
          checks += 1;
          if (problem) failures.push(`POST ${url} intent=${name} [${route.id}] as ${who}: ${problem}`);
          if (allowed && outcome.toast === "Ação desconhecida.") failures.push(`POST ${url}: '${name}' is not an intent of ${route.id}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checks).toBeGreaterThan(200);
  });
});
