/**
 * Walks every route of app/routes.ts the way a hostile or broken client would: junk query strings
 * on every loader and API (SQL, HTML, path tricks, broken cursors), thousands of junk values (wrong
 * types, huge and control-character strings, repeated fields, SQL and HTML payloads) and junk
 * bodies (bad JSON, XML, bad multipart, wrong content types) on every action, signed in as an
 * admin and anonymously. Nothing may answer 5xx, a refused request (4xx) must leave the database
 * as it was (no partial write), and payloads that are stored render as inert text.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type React from "react";
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
  "redirectTo=/%09/evil.example",
  `q=${encodeURIComponent("' OR 1=1 --")}`,
  `q=${encodeURIComponent("<script>window.__xss=1</script>")}`,
  `q=${encodeURIComponent("../../etc/passwd")}&page=../../1`,
  "after=%5B%22x%22%2C-1%5D&before=%5Bnull%2Cnull%5D",
  "after=%5B1e400%2C1%5D",
  "after=" + "%5B".repeat(500),
  "user=%00&entity=..%2F&action=drop&from=2024-02-30&to=9999-99-99",
  "from=2024-01-01&to=2023-01-01",
  "q[]=1&q[]=2&page[]=3",
  "sort=id;drop table patients&dir=asc--",
];

/** SQL and HTML payloads: refused or stored as text, never executed (see 'renders stored payloads inert'). */
const SQL_PAYLOADS = ["' OR '1'='1", "1; DROP TABLE patients; --", "\" UNION SELECT password_hash FROM users --", "1) OR (1=1", "%' AND 1=0 UNION SELECT 1,2,3 --"];
const HTML_PAYLOADS = [
  "<script>window.__xss=1</script>",
  "<img src=x onerror=window.__xss=1>",
  "\"><svg onload=window.__xss=1>",
  "javascript:window.__xss=1",
  "{{constructor.constructor('return 1')()}}",
  "</textarea><script>1</script>",
];
const PATH_TRICKS = ["../../etc/passwd", "..%2f..%2fetc%2fpasswd", "..\\..\\windows\\win.ini", "/dev/zero", "%2e%2e%2f", "file:///etc/passwd", "C:\\boot.ini"];
const JUNK_VALUES = [
  "\u0000", "%00", "'\"<>", "-1", "abc", "9".repeat(400), "2024-13-45T99:99", "1e309", "", " ", "__proto__",
  // wrong types and edge numbers
  "NaN", "Infinity", "-0", "0x1F", "1e21", "1.5", "true", "null", "undefined", "[]", "{}", '{"a":1}', "[1,2,3]",
  // control characters, unicode tricks, huge strings
  "\u0007\u0008\u001b[31m", "\r\n\r\nX-Injected: 1", "\u202eevil", "\u200b\u200b", "😀".repeat(50), "\ud800", "a".repeat(100_000),
  ...SQL_PAYLOADS,
  ...HTML_PAYLOADS,
  ...PATH_TRICKS,
];
const FIELD_NAMES = [
  "id", "name", "cpf", "dateOfBirth", "phone", "email", "address", "insurance", "medicalHistory", "whatsappOptIn",
  "specialty", "crm", "crmUf", "commissionRate", "active",
  "patientId", "doctorId", "startTime", "endTime", "type", "location", "status", "notes",
  "surgeryType", "scheduledDate", "surgeryStatus", "currentStage", "estimatedDurationMin", "hospitalId", "hospitalName",
  "payerId", "payerName", "guideNumber", "billedAmount",
  "clinicName", "passwordMinLength", "currentPassword", "newPassword", "confirmPassword", "userId", "role",
  "password", "redirectTo",
];
const INTENTS = [
  "create", "update", "delete", "update-general", "update-security", "change-password", "set-role", "signup", "login",
  "verify", "update-schedule", "backup-now", "__proto__", "toString", "constructor", "",
];

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
    { label: "bad json", init: { headers: { "Content-Type": "application/json" }, body: '{"intent":"create","name":' } },
    { label: "json prototype", init: { headers: { "Content-Type": "application/json" }, body: '{"__proto__":{"admin":true},"constructor":{"prototype":{}}}' } },
    { label: "xml", init: { headers: { "Content-Type": "application/xml" }, body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>' } },
    { label: "empty", init: { headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "" } },
    { label: "bom", init: { headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "\uFEFFintent=create&name=x" } },
    { label: "odd charset", init: { headers: { "Content-Type": "application/x-www-form-urlencoded; charset=utf-7" }, body: "intent=create&name=+ADw-script+AD4-" } },
    { label: "claims gzip", init: { headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Encoding": "gzip" }, body: "intent=create&name=x" } },
    { label: "binary", init: { headers: { "Content-Type": "application/octet-stream" }, body: new Uint8Array([0, 255, 1, 254, 0, 0]) } },
    { label: "many fields", init: { headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "intent=create&" + "x=1&".repeat(5_000) } },
    {
      label: "multipart with a file",
      init: {
        headers: { "Content-Type": "multipart/form-data; boundary=b" },
        body: '--b\r\nContent-Disposition: form-data; name="intent"\r\n\r\ncreate\r\n--b\r\nContent-Disposition: form-data; name="name"; filename="../../x.sh"\r\nContent-Type: application/x-sh\r\n\r\n#!/bin/sh\r\n--b--\r\n',
      },
    },
    {
      label: "multipart truncated",
      init: { headers: { "Content-Type": "multipart/form-data; boundary=b" }, body: '--b\r\nContent-Disposition: form-data; name="intent"\r\n\r\ncre' },
    },
    { label: "multipart huge boundary", init: { headers: { "Content-Type": `multipart/form-data; boundary=${"b".repeat(5_000)}` }, body: "--x" } },
  ];
}

/** Row counts of every table: a refused request must not change any of them (one statement, prepared once). */
let countAll: { get: () => unknown } | undefined;
function snapshot(): string {
  if (!countAll) {
    const tables = sqlite
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%search%' and name <> 'sessions'")
      .pluck()
      .all() as string[];
    countAll = sqlite.prepare(`select ${tables.map((t) => `(select count(*) from "${t}") as "${t}"`).join(", ")}`);
  }
  return JSON.stringify(countAll.get());
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

/** What a loader or action gave back, returned or thrown (for reading a refusal's message). */
async function thrownOrReturned(call: () => unknown): Promise<unknown> {
  try {
    return await call();
  } catch (error) {
    return error;
  }
}

async function loadModule(file: string): Promise<RouteModule> {
  return import(/* @vite-ignore */ path.resolve(import.meta.dirname, "../../app", file));
}

let adminCookie = "";
beforeAll(async () => {
  // 'backup-now' is among the intents tried: its backups go to a throwaway folder.
  process.env.BACKUP_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "sinapse-fuzz-backups-"));
  process.env.DOCUMENTS_DIR = path.join(process.env.BACKUP_DIR, "none");
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

  it("answers every junk query string without a 5xx, signed in or not", { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const { path: routePath, file } of ROUTES) {
      const mod = await loadModule(file);
      if (!mod.loader) continue;
      for (const query of JUNK_QUERIES) {
        for (const cookie of [adminCookie, ""]) {
          const url = `${routePath.replace(":id", "1")}?${query}`;
          sent += 1;
          const status = await statusOfCall(() => mod.loader!(routeArgs(getRequest(url, { cookie }), { id: "1", "*": "x/y" })));
          if (status >= 500) failures.push(`GET ${url} ${cookie ? "(admin)" : "(anonymous)"} → ${status}`);
        }
      }
      for (const id of ["abc", "%00", "-1", "99999999999999999999", "../1", "1;drop table patients", "%2e%2e", "1 OR 1=1", "0x10", "1e3", "<script>"]) {
        if (!routePath.includes(":id")) continue;
        const status = await statusOfCall(() => mod.loader!(routeArgs(getRequest(routePath.replace(":id", id), { cookie: adminCookie }), { id })));
        if (status >= 500) failures.push(`GET ${routePath} id=${id} → ${status}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent, "junk query strings sent to the loaders").toBeGreaterThan(2_000);
  });

  it("refuses junk bodies and junk values on every action with a 4xx and no partial write", { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    let sent = 0;
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
      // Every junk value goes to the intents this action knows; an unknown intent is refused before
      // any field is read, so a few values are enough to show that.
      const known = new Set<string>();
      for (const intent of INTENTS) {
        const probe = await thrownOrReturned(() =>
          mod.action!(routeArgs(request(target, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ intent }), cookie: adminCookie }), { id: "1" })),
        );
        if (!JSON.stringify(probe ?? null).includes("Ação desconhecida")) known.add(intent);
      }
      for (const intent of INTENTS) {
        for (const junk of known.has(intent) ? JUNK_VALUES : JUNK_VALUES.slice(0, 3)) {
          const form = new URLSearchParams({ intent });
          // A huge value goes in two fields (it is the body's size that matters), the rest in all.
          for (const field of junk.length > 10_000 ? ["name", "notes"] : FIELD_NAMES) form.set(field, junk);
          // A repeated field (an array where one value is expected) on the first and most fields.
          if (junk === "abc") for (const field of FIELD_NAMES) form.append(field, "def");
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
        sent += 1;
        const before = snapshot();
        const status = await statusOfCall(() => mod.action!(routeArgs(attempt.make(), { id: "1" })));
        if (status >= 500) failures.push(`POST ${target} ${attempt.label} → ${status}`);
        if (status >= 400 && snapshot() !== before) {
          failures.push(`POST ${target} ${attempt.label} → ${status} but the database changed`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent, "malformed requests sent to the actions").toBeGreaterThan(1_000);
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

describe("stored payloads render inert", () => {
  it("shows SQL and HTML typed into a record as text on every list screen", { timeout: 60_000 }, async () => {
    const { createElement } = await import("react");
    const { renderToString } = await import("react-dom/server");
    const { createRoutesStub } = await import("react-router");
    const marker = `inert${Date.now().toString(36)}`;
    const payload = `${marker} <img src=x onerror=window.__xss=1> <script>window.__xss=1</script> ' OR '1'='1`;

    const post = async (file: string, path: string, fields: Record<string, string>) => {
      const mod = await loadModule(file);
      const status = await statusOfCall(() =>
        mod.action!(
          routeArgs(
            request(path, {
              method: "POST",
              headers: { "Content-Type": "application/x-www-form-urlencoded" },
              body: new URLSearchParams(fields),
              cookie: adminCookie,
            }),
          ),
        ),
      );
      expect(status, `${path} ${fields.intent}`).toBe(302);
    };
    await post("routes/patients.tsx", "/patients", { intent: "create", name: payload, address: payload, medicalHistory: payload });
    await post("routes/doctors.tsx", "/doctors", { intent: "create", name: payload, specialty: payload, crm: "654321", commissionRate: "0.1", active: "on" });
    const stored = sqlite.prepare("select name from patients where name like ?").pluck().get(`${marker}%`) as string;
    expect(stored).toBe(payload);

    const screens: { file: string; url: string }[] = [
      { file: "routes/patients.tsx", url: `/patients?q=${marker}` },
      { file: "routes/doctors.tsx", url: `/doctors?q=${marker}` },
      { file: "routes/settings/audit.tsx", url: "/settings/audit?entity=doctor" },
    ];
    for (const screen of screens) {
      const mod = (await loadModule(screen.file)) as RouteModule & { default: React.ComponentType };
      const loaderData = await mod.loader!(routeArgs(getRequest(screen.url, { cookie: adminCookie })));
      const Stub = createRoutesStub([{ id: "screen", path: screen.url.split("?")[0], Component: mod.default as never }]);
      const html = renderToString(
        createElement(Stub, { initialEntries: [screen.url], hydrationData: { loaderData: { screen: loaderData } } }),
      );
      expect(html, screen.url).toContain(marker);
      expect(html, screen.url).not.toContain("<img src=x");
      expect(html, screen.url).not.toContain("<script>window.__xss");
      expect(html, screen.url).toMatch(/&lt;img src=x onerror=window.__xss=1&gt;|&lt;img src=x onerror=window\.__xss=1/);
    }
  });
});
