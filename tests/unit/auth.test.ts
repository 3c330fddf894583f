import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, sessions, userRoles } from "~db/schema";
import { requirePermission, requireUser } from "~/.server/auth";
import { db } from "~/.server/db";
import { hashPassword, verifyPassword } from "~/.server/password";
import { createUserSession, destroyOtherSessions, destroyUserSession, getSessionUser } from "~/.server/session";
import { AccountError, changePassword, createAccount, setUserRole, verifyLogin } from "~/models/user.server";
import { TEST_ORIGIN, cookieOf, formRequest, getRequest, loginAs, sessionCookie, thrownResponse } from "./helpers";

describe("password hashing", () => {
  it("hashes with Argon2id and verifies only the right password", async () => {
    const hash = await hashPassword("correta-horse-battery");
    expect(hash.startsWith("$argon2id$v=19$m=19456,t=2,p=1$")).toBe(true);
    expect(await verifyPassword(hash, "correta-horse-battery")).toBe(true);
    expect(await verifyPassword(hash, "errada")).toBe(false);
    expect(await verifyPassword("not-a-hash", "x")).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("mesma-senha")).not.toBe(await hashPassword("mesma-senha"));
  });
});

describe("accounts", () => {
  it("makes the first account admin and later ones wait without a role", async () => {
    const first = await createAccount({ name: "Ana", email: "Ana@Clinica.test", password: "senha-forte-1" });
    const second = await createAccount({ name: "Bruno", email: "bruno@clinica.test", password: "senha-forte-2" });
    expect(first.role).toBe("admin");
    expect(second.role).toBeNull();
    expect(db.select().from(userRoles).where(eq(userRoles.userId, second.id)).get()).toBeUndefined();
    // E-mails are case-insensitive.
    expect(await verifyLogin("ana@clinica.TEST", "senha-forte-1")).toBe(first.id);
    expect(await verifyLogin("ana@clinica.test", "senha-errada")).toBeNull();
    expect(await verifyLogin("ninguem@clinica.test", "senha-forte-1")).toBeNull();
    await expect(createAccount({ name: "Outra Ana", email: "ana@clinica.test", password: "x".repeat(10) })).rejects.toThrow(
      AccountError,
    );
  });

  it("keeps at least one admin and records role grants", async () => {
    const admin = (await verifyLogin("ana@clinica.test", "senha-forte-1"))!;
    const bruno = (await verifyLogin("bruno@clinica.test", "senha-forte-2"))!;
    expect(() => setUserRole(admin, admin, "staff")).toThrow("A clínica precisa de pelo menos um administrador.");
    setUserRole(admin, bruno, "staff");
    expect(db.select().from(userRoles).where(eq(userRoles.userId, bruno)).get()?.role).toBe("staff");
    setUserRole(admin, bruno, "admin");
    setUserRole(bruno, admin, "doctor"); // now allowed: Bruno is still an admin
    expect(db.select().from(userRoles).where(eq(userRoles.userId, admin)).get()?.role).toBe("doctor");
    const grants = db.select().from(auditLog).where(eq(auditLog.action, "grant_role")).all();
    expect(grants.length).toBe(3);
    setUserRole(bruno, admin, "admin");
  });

  it("changes a password only with the current one", async () => {
    const bruno = (await verifyLogin("bruno@clinica.test", "senha-forte-2"))!;
    await expect(changePassword(bruno, "errada", "nova-senha-123")).rejects.toThrow("Senha atual incorreta.");
    await changePassword(bruno, "senha-forte-2", "nova-senha-123");
    expect(await verifyLogin("bruno@clinica.test", "nova-senha-123")).toBe(bruno);
    expect(await verifyLogin("bruno@clinica.test", "senha-forte-2")).toBeNull();
  });
});

describe("sessions", () => {
  it("stores only a hash of the token and finds the user by the cookie", async () => {
    const userId = (await verifyLogin("ana@clinica.test", "senha-forte-1"))!;
    const setCookie = await createUserSession(getRequest("/auth"), userId);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    const token = decodeURIComponent(cookieOf(setCookie).split("=")[1]);
    const stored = db.select().from(sessions).all();
    expect(stored.some((s) => s.tokenHash === token || s.tokenHash.includes(token))).toBe(false);

    const user = await getSessionUser(getRequest("/dashboard", { cookie: cookieOf(setCookie) }));
    expect(user).toMatchObject({ id: userId, email: "ana@clinica.test", name: "Ana", role: "admin" });
  });

  it("marks the cookie Secure behind HTTPS", async () => {
    const userId = (await verifyLogin("ana@clinica.test", "senha-forte-1"))!;
    const setCookie = await createUserSession(new Request("https://clinica.example/auth"), userId);
    expect(setCookie).toMatch(/Secure/);
  });

  it("expires after the idle time and is extended by use", async () => {
    const SESSION_IDLE_MS = 30 * 60 * 1000; // the default of Configurações → Segurança
    const userId = (await verifyLogin("ana@clinica.test", "senha-forte-1"))!;
    const start = new Date();
    const cookie = cookieOf(await createUserSession(getRequest("/auth"), userId, { now: start }));
    const request = () => getRequest("/dashboard", { cookie });
    const later = (ms: number) => new Date(start.getTime() + ms);

    expect(await getSessionUser(request(), later(SESSION_IDLE_MS - 1000))).not.toBeNull();
    // That use, more than a minute after login, pushed the expiry forward.
    expect(await getSessionUser(request(), later(SESSION_IDLE_MS + 60_000))).not.toBeNull();
    expect(await getSessionUser(request(), later(3 * SESSION_IDLE_MS))).toBeNull();
  });

  it("is read once per page request (its loaders share it) and again by each action", async () => {
    const userId = (await verifyLogin("ana@clinica.test", "senha-forte-1"))!;
    const cookie = cookieOf(await createUserSession(getRequest("/auth"), userId));
    const page = getRequest("/patients.data?_routes=routes%2Fpatients", { cookie });
    expect(await getSessionUser(page)).toMatchObject({ id: userId });
    db.delete(sessions).where(eq(sessions.userId, userId)).run();
    // The page's next loader finds the user its first one found; the next page does not.
    expect(await getSessionUser(page)).toMatchObject({ id: userId });
    expect(await getSessionUser(getRequest("/patients", { cookie }))).toBeNull();

    // An action that ends its own session sees it ended.
    const again = cookieOf(await createUserSession(getRequest("/auth"), userId));
    const post = formRequest("/settings", { intent: "logout-others" }, { cookie: again });
    expect(await getSessionUser(post)).toMatchObject({ id: userId });
    db.delete(sessions).where(eq(sessions.userId, userId)).run();
    expect(await getSessionUser(post)).toBeNull();
  });

  it("is destroyed on logout, so the old cookie is refused", async () => {
    const userId = (await verifyLogin("ana@clinica.test", "senha-forte-1"))!;
    const cookie = cookieOf(await createUserSession(getRequest("/auth"), userId));
    const cleared = await destroyUserSession(getRequest("/logout", { cookie }));
    expect(cleared).toMatch(/Max-Age=0/);
    expect(await getSessionUser(getRequest("/dashboard", { cookie }))).toBeNull();
  });

  it("ends the user's other sessions but keeps the current one", async () => {
    const userId = (await verifyLogin("ana@clinica.test", "senha-forte-1"))!;
    const mine = cookieOf(await createUserSession(getRequest("/auth"), userId));
    const other = cookieOf(await createUserSession(getRequest("/auth"), userId));
    expect(await destroyOtherSessions(getRequest("/settings", { cookie: mine }), userId)).toBeGreaterThan(0);
    expect(await getSessionUser(getRequest("/", { cookie: mine }))).not.toBeNull();
    expect(await getSessionUser(getRequest("/", { cookie: other }))).toBeNull();
  });

  it("ignores forged and malformed cookies", async () => {
    expect(await getSessionUser(getRequest("/", { cookie: "sinapse_session=abc" }))).toBeNull();
    expect(await getSessionUser(getRequest("/", { cookie: `sinapse_session=${"A".repeat(43)}` }))).toBeNull();
    expect(await getSessionUser(getRequest("/", { cookie: "sinapse_session=%E0%A4%A" }))).toBeNull();
  });
});

describe("server guards", () => {
  it("redirects a signed-out page request to /auth and answers 401 on the API", async () => {
    const page = await thrownResponse(requireUser(getRequest("/patients?q=ana")));
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/auth?redirectTo=%2Fpatients%3Fq%3Dana");
    const api = await thrownResponse(requireUser(getRequest("/api/patients")));
    expect(api.status).toBe(401);
  });

  it("refuses with 403 what the role may not do, and everything to a pending account", async () => {
    // Carla's password is the one the lockout test below tries.
    const staff = await loginAs("staff", { name: "Carla", email: "carla@clinica.test", password: "senha-forte-3" });
    const pending = await loginAs(null, { name: "Davi", email: "davi@clinica.test", password: "senha-forte-4" });
    const staffCookie = staff.cookie;
    const pendingCookie = pending.cookie;

    const post = (cookie: string) =>
      new Request(`${TEST_ORIGIN}/patients`, { method: "POST", headers: { Cookie: cookie, Origin: TEST_ORIGIN } });
    expect((await requirePermission(post(staffCookie), "patients", "create")).id).toBe(staff.id);
    expect((await thrownResponse(requirePermission(post(staffCookie), "patients", "delete"))).status).toBe(403);
    expect((await thrownResponse(requirePermission(getRequest("/financial", { cookie: staffCookie }), "financial", "view"))).status).toBe(403);
    expect((await thrownResponse(requirePermission(getRequest("/dashboard", { cookie: pendingCookie }), "patients", "view"))).status).toBe(403);
    expect((await thrownResponse(requirePermission(post(pendingCookie), "tasks", "create"))).status).toBe(403);
  });

  it("refuses a write posted from another site", async () => {
    const userId = (await verifyLogin("ana@clinica.test", "senha-forte-1"))!;
    const cookie = await sessionCookie(userId);
    const forged = new Request(`${TEST_ORIGIN}/settings`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: "https://evil.example" },
    });
    expect((await thrownResponse(requireUser(forged))).status).toBe(403);
  });
});

describe("login lockout", () => {
  it("locks an e-mail after five wrong passwords, with a clear message", async () => {
    const { authenticator } = await import("~/.server/auth");
    const attempt = (password: string) => {
      const body = new URLSearchParams({ email: "carla@clinica.test", password });
      return authenticator.authenticate(
        "form",
        new Request(`${TEST_ORIGIN}/auth`, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
      );
    };
    for (let i = 0; i < 5; i++) await expect(attempt("errada")).rejects.toThrow("E-mail ou senha incorretos.");
    // Even the right password is refused while the lock lasts.
    await expect(attempt("senha-forte-3")).rejects.toThrow("Muitas tentativas de acesso.");
  });
});
