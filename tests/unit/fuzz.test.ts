/**
 * Walks every route of app/routes.ts the way a hostile or broken client would: junk query strings
 * on every loader, junk values and junk content types on every action, signed in as an admin and
 * anonymously. Nothing may answer 5xx, and a refused request (4xx) must leave the database as it
 * was: no partial write.
 */
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { beforeAll, describe, expect, it } from "vitest";
import { sqlite } from "~/.server/db";
import routes from "~/routes";
import { TEST_ORIGIN, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, statusOf } from "../support/fixtures";

interface RouteModule {
  loader?: (args: never) => unknown;
  action?: (args: never) => unknown;
}

/** Every routed path with its module file, aliases included ('*' splats become 'x/y'). */
function flatten(entries: RouteConfigEntry[], parent = ""): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const own = entry.path ? `${parent}/${entry.path}` : parent || "/";
    return [{ path: own, file: entry.file }, ...flatten(entry.children ?? [], own === "/" ? "" : own)];
  });
}

const ROUTES = flatten(routes as RouteConfigEntry[]).map((r) => ({
  ...r,
  path: r.path.replace(/\*$/, "x/y").replace(/^\/\//, "/"),
}));

const JUNK_QUERIES = [
  "q=%00'\"<script>",
  `q=${"ção".repeat(2000)}`,
  "q=%ff%fe%00&page=-1&sort=__proto__&dir=sideways",
  "page=1e400&sort=constructor",
  "page=99999999999999999999",
  "dialog=new",
  "dialog=%00",
  "edit=abc",
  "edit=999999999",
  "delete=0",
  "delete=%00",
  "delete=1",
  "edit=1",
  "returnTo=/schedule?x=%00",
  "returnTo=//evil.example",
  "status=%00&doctor=-5&stage=x&view=zz&date=2024-13-45",
  "tab=%00",
  "tab=usuarios&q=%00&page=abc",
  "view=month&date=99999-01-01",
  "view=day&date=0000-00-00&doctor=1e3",
  "picker=1&patientQ=%00&doctorQ=%00&patientId=abc&doctorId=-1&startTime=zz&status=%00",
  "limit=-1&q=%00",
  "limit=1e9",
  "redirectTo=//evil.example",
];

const JUNK_VALUES = ["\u0000", "%00", "'\"<>", "-1", "abc", "9".repeat(400), "2024-13-45T99:99", "1e309", "", " ", "__proto__"];
const FIELD_NAMES = [
  "id", "name", "cpf", "dateOfBirth", "phone", "email", "address", "insurance", "medicalHistory", "whatsappOptIn",
  "specialty", "crm", "crmUf", "commissionRate", "active",
  "patientId", "doctorId", "startTime", "endTime", "type", "location", "status", "notes",
  "surgeryType", "scheduledDate", "surgeryStatus", "currentStage", "estimatedDurationMin", "hospitalId", "hospitalName",
  "payerId", "payerName", "guideNumber", "billedAmount",
  "clinicName", "passwordMinLength", "currentPassword", "newPassword", "confirmPassword", "userId", "role",
  "password", "redirectTo",
];
const INTENTS = ["create", "update", "delete", "update-general", "update-security", "change-password", "set-role", "signup", "login", "__proto__", "toString", ""];

/** Bodies that are not a form, or not one a browser would send. */
function junkBodies(): { label: string; init: RequestInit }[] {
  return [
    { label: "json", init: { headers: { "Content-Type": "application/json" }, body: '{"intent":"create","name":"x"}' } },
    { label: "text", init: { headers: { "Content-Type": "text/plain" }, body: "intent=create&name=x" } },
    { label: "no type", init: { body: "intent=create" } },
    {
      label: "broken multipart",
      init: { headers: { "Content-Type": "multipart/form-data; boundary=abc" }, body: "--xyz\r\nContent-Disposition: form-data\r\n\r\n" },
    },
    { label: "multipart without boundary", init: { headers: { "Content-Type": "multipart/form-data" }, body: "intent=create" } },
    { label: "bad urlencoding", init: { headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "intent=%E0%A4%A&name=%" } },
    { label: "too large", init: { headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: `intent=create&name=${"a".repeat(1_100_000)}` } },
  ];
}

/** Row counts of every table: a refused request must not change any of them. */
function snapshot(): Record<string, number> {
  const tables = sqlite
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%search%' and name <> 'sessions'")
    .pluck()
    .all() as string[];
  return Object.fromEntries(tables.map((t) => [t, sqlite.prepare(`select count(*) from "${t}"`).pluck().get() as number]));
}

/** The status a loader or action answers with, thrown or returned; an exception that is not a response is a 500. */
async function statusOfCall(call: () => unknown): Promise<number> {
  try {
    return statusOf(await call());
  } catch (error) {
    if (error instanceof Response) return error.status;
    const maybeData = error as { type?: string; init?: { status?: number } };
    if (maybeData?.type === "DataWithResponseInit") return maybeData.init?.status ?? 200;
    return 500;
  }
}

async function loadModule(file: string): Promise<RouteModule> {
  return import(/* @vite-ignore */ path.resolve(import.meta.dirname, "../../app", file));
}

let adminCookie = "";
beforeAll(async () => {
  adminCookie = (await loginAs("admin")).cookie;
  insertPatient("Paciente Fuzz");
  insertDoctor("Dr. Fuzz");
});

function request(pathAndQuery: string, init: RequestInit & { cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("Cookie", init.cookie);
  headers.set("Origin", TEST_ORIGIN);
  return new Request(new URL(pathAndQuery, TEST_ORIGIN), { ...init, headers });
}

describe("every route survives junk", () => {
  it("walks more than the screens of SPEC §2 (the route table was read)", () => {
    expect(ROUTES.some((r) => r.path === "/patients")).toBe(true);
    expect(ROUTES.length).toBeGreaterThan(20);
  });

  it("answers every junk query string without a 5xx, signed in or not", { timeout: 120_000 }, async () => {
    const failures: string[] = [];
    for (const { path: routePath, file } of ROUTES) {
      const mod = await loadModule(file);
      if (!mod.loader) continue;
      for (const query of JUNK_QUERIES) {
        for (const cookie of [adminCookie, ""]) {
          const url = `${routePath.replace(":id", "1")}?${query}`;
          const status = await statusOfCall(() => mod.loader!(routeArgs(getRequest(url, { cookie }), { id: "1", "*": "x/y" })));
          if (status >= 500) failures.push(`GET ${url} ${cookie ? "(admin)" : "(anonymous)"} → ${status}`);
        }
      }
      for (const id of ["abc", "%00", "-1", "99999999999999999999"]) {
        if (!routePath.includes(":id")) continue;
        const status = await statusOfCall(() => mod.loader!(routeArgs(getRequest(routePath.replace(":id", id), { cookie: adminCookie }), { id })));
        if (status >= 500) failures.push(`GET ${routePath} id=${id} → ${status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("refuses junk bodies and junk values on every action with a 4xx and no partial write", { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    const seen = new Set<string>();
    for (const { path: routePath, file } of ROUTES) {
      if (seen.has(file)) continue;
      seen.add(file);
      const mod = await loadModule(file);
      if (!mod.action || file.includes("logout")) continue;
      const target = routePath.replace(":id", "1");

      const attempts: { label: string; make: () => Request }[] = [];
      for (const body of junkBodies()) {
        attempts.push({ label: body.label, make: () => request(target, { method: "POST", ...body.init, cookie: adminCookie }) });
      }
      for (const intent of INTENTS) {
        for (const junk of JUNK_VALUES) {
          const form = new URLSearchParams({ intent });
          for (const field of FIELD_NAMES) form.set(field, junk);
          attempts.push({
            label: `intent=${intent} fields=${JSON.stringify(junk).slice(0, 20)}`,
            make: () =>
              request(`${target}?returnTo=/schedule?x=%00`, {
                method: "POST",
                headers: { "Content-Type": "application/x-www-form-urlencoded" },
                body: form,
                cookie: adminCookie,
              }),
          });
        }
      }
      for (const attempt of attempts) {
        const before = snapshot();
        const status = await statusOfCall(() => mod.action!(routeArgs(attempt.make(), { id: "1" })));
        if (status >= 500) failures.push(`POST ${target} ${attempt.label} → ${status}`);
        if (status >= 400 && JSON.stringify(snapshot()) !== JSON.stringify(before)) {
          failures.push(`POST ${target} ${attempt.label} → ${status} but the database changed`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("refuses a flood of repeated fields quickly, before parsing them", async () => {
    const mod = await loadModule("routes/auth.tsx");
    const started = performance.now();
    const status = await statusOfCall(() =>
      mod.action!(
        routeArgs(
          request("/auth", {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body: "a=b&".repeat(80_000),
          }),
        ),
      ),
    );
    // 320 KB: over the size cap (413); a smaller flood stops at the field cap (400, form-body tests).
    expect(status).toBe(413);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
