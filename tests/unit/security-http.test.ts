/**
 * Hardening of the sign-in, sign-up and sign-out requests: open redirects, account enumeration
 * through sign-up, forged cross-site posts, echoed values, and the database file's permissions.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { users } from "~db/schema";
import { safeRedirect } from "~/.server/auth";
import { db, openDatabase } from "~/.server/db";
import { getSessionUser } from "~/.server/session";
import * as authRoute from "~/routes/auth";
import * as logoutRoute from "~/routes/logout";
import { TEST_ORIGIN, formRequest, getRequest, loginAs, routeArgs, statusOf, thrownResponse } from "./helpers";

afterEach(() => vi.restoreAllMocks());

describe("post-login redirect", () => {
  it("keeps paths of this site, normalised", () => {
    expect(safeRedirect("/patients?q=ana")).toBe("/patients?q=ana");
    expect(safeRedirect("/schedule/../patients")).toBe("/patients");
    expect(safeRedirect("/settings?tab=seguranca#x")).toBe("/settings?tab=seguranca#x");
  });

  it.each([
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "//evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "http:/evil.example",
    "javascript:alert(1)",
    " /dashboard",
    "",
    "/\u0000",
  ])("refuses %j", (target) => {
    expect(safeRedirect(target)).toBe("/dashboard");
  });

  it("refuses what a browser would resolve to another site after decoding the query (redirectTo=/%09/evil.example)", () => {
    const fromQuery = new URL(`${TEST_ORIGIN}/auth?redirectTo=/%09/evil.example`).searchParams.get("redirectTo");
    expect(safeRedirect(fromQuery)).toBe("/dashboard");
  });

  it("sends a signed-in user to the normalised path, never the raw one", async () => {
    const admin = await loginAs("admin", { email: "redir@clinica.test", password: "senha-forte-1" });
    const response = await authRoute.action(
      routeArgs(formRequest("/auth", { intent: "login", email: admin.email, password: "senha-forte-1", redirectTo: "/\t/evil.example" })),
    );
    expect((response as Response).status).toBe(302);
    expect((response as Response).headers.get("Location")).toBe("/dashboard");
  });
});

describe("sign-up", () => {
  it("answers an e-mail that already has an account exactly as a new one, and creates nothing", async () => {
    await loginAs("admin", { email: "existe@clinica.test" });
    const before = db.select().from(users).all().length;
    const existing = (await authRoute.action(
      routeArgs(formRequest("/auth", { intent: "signup", name: "Intrusa", email: "EXISTE@clinica.test", password: "outra-senha-1" })),
    )) as Response;
    const fresh = (await authRoute.action(
      routeArgs(formRequest("/auth", { intent: "signup", name: "Nova", email: "nova@clinica.test", password: "outra-senha-1" })),
    )) as Response;
    expect(existing.status).toBe(fresh.status);
    expect(existing.headers.get("Location")).toBe(fresh.headers.get("Location"));
    expect(existing.headers.get("Location")).toBe("/auth?tab=login&conta=aguardando");
    expect(await existing.text()).toBe(await fresh.text());
    expect(db.select().from(users).all().length).toBe(before + 1);
  });

  it("never echoes a huge value back", async () => {
    const huge = "A".repeat(200_000);
    const result = await authRoute.action(
      routeArgs(formRequest("/auth", { intent: "signup", name: huge, email: "grande@clinica.test", password: "x" })),
    );
    expect(statusOf(result)).toBe(400);
    const body = JSON.stringify(result);
    expect(body.length).toBeLessThan(10_000);
    expect(body).toContain("Nome muito longo");
  });
});

describe("forged cross-site posts", () => {
  it("refuses a login posted from another site, with one log line and no stack trace", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const origin of ["https://evil.example", "null"]) {
      const request = formRequest("/auth", { intent: "login", email: "a@b.test", password: "x" }, { headers: { Origin: origin } });
      request.headers.set("Origin", origin);
      expect((await thrownResponse(authRoute.action(routeArgs(request)))).status).toBe(403);
    }
    const crossSite = formRequest("/auth", { intent: "login", email: "a@b.test", password: "x" });
    crossSite.headers.delete("Origin");
    crossSite.headers.set("Sec-Fetch-Site", "cross-site");
    expect((await thrownResponse(authRoute.action(routeArgs(crossSite)))).status).toBe(403);
    expect(warn).toHaveBeenCalledTimes(3);
    expect(String(warn.mock.calls[0][0])).toMatch(/^refused cross-origin POST \/auth from https:\/\/evil\.example$/);
    expect(String(warn.mock.calls[0][0])).not.toContain("\n");
    expect(error).not.toHaveBeenCalled();
  });

  it("keeps the session when another site posts to /logout", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const user = await loginAs("staff", { email: "sessao@clinica.test" });
    const forged = formRequest("/logout", {}, { cookie: user.cookie });
    forged.headers.set("Origin", "https://evil.example");
    expect((await thrownResponse(logoutRoute.action(routeArgs(forged)))).status).toBe(403);
    expect(await getSessionUser(getRequest("/dashboard", { cookie: user.cookie }))).not.toBeNull();

    // Our own form ends it.
    const own = (await logoutRoute.action(routeArgs(formRequest("/logout", {}, { cookie: user.cookie })))) as Response;
    expect(own.headers.get("Location")).toBe("/auth");
    expect(await getSessionUser(getRequest("/dashboard", { cookie: user.cookie }))).toBeNull();
  });

  it("GET /logout does not pretend: it asks to confirm while the session stays valid, and redirects only when it has ended", async () => {
    const user = await loginAs("staff", { email: "get-logout@clinica.test" });
    const page = await logoutRoute.loader(routeArgs(getRequest("/logout", { cookie: user.cookie })));
    expect(page).toMatchObject({ name: expect.any(String) });
    expect(await getSessionUser(getRequest("/dashboard", { cookie: user.cookie }))).not.toBeNull();
    const anonymous = await thrownResponse(logoutRoute.loader(routeArgs(getRequest("/logout"))));
    expect(anonymous.headers.get("Location")).toBe("/auth");
  });
});

describe("database file", () => {
  it("is created with its WAL and shared-memory files readable by the owner only (0600)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sinapse-mode-"));
    const file = path.join(dir, "clinic.sqlite");
    const previous = process.umask(0o022);
    try {
      const conn = openDatabase(file);
      conn.exec("create table t (x); insert into t values (1);");
      for (const suffix of ["", "-wal", "-shm"]) {
        expect((fs.statSync(file + suffix).mode & 0o777).toString(8)).toBe("600");
      }
      conn.close();
    } finally {
      process.umask(previous);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("tightens a file created before with looser permissions", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sinapse-mode-"));
    const file = path.join(dir, "old.sqlite");
    fs.writeFileSync(file, "");
    fs.chmodSync(file, 0o644);
    try {
      openDatabase(file).close();
      expect((fs.statSync(file).mode & 0o777).toString(8)).toBe("600");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
