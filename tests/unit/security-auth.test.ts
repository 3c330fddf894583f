/**
 * Sign-in throttling (database-backed, per account, address and known device), the same answer
 * for unknown and known e-mails, session timeouts and rotation, TOTP MFA with recovery codes,
 * forced password resets and the credential rules of Configurações → Segurança.
 */
import { and, eq, like } from "drizzle-orm";
import { generate } from "otplib";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, clinicSettings, loginThrottle, mfaFactors, mfaRecoveryCodes, sessions, users } from "~db/schema";
import { MFA_SETUP_URL, requireUser } from "~/.server/auth";
import { db } from "~/.server/db";
import { purgeExpiredSessions, getSessionUser, createUserSession } from "~/.server/session";
import { CLIENT_ADDRESS_HEADER } from "~/.server/audit";
import { coolDownFor, noteFailure } from "~/.server/throttle";
import { setUserRole } from "~/models/user.server";
import * as authRoute from "~/routes/auth";
import * as settingsRoute from "~/routes/settings";
import {
  type SignedIn,
  cookieFrom,
  cookieOf,
  formRequest,
  getRequest,
  loginAs,
  routeArgs,
  statusOf,
  thrownResponse,
} from "./helpers";

const PASSWORD = "senha-de-teste-123";
let admin: SignedIn;

beforeAll(async () => {
  admin = await loginAs("admin", { email: "admin@seg.test", password: PASSWORD });
});

function setSettings(values: Partial<typeof clinicSettings.$inferInsert>) {
  db.update(clinicSettings).set(values).where(eq(clinicSettings.id, 1)).run();
}

/** A sign-in POST as the browser sends it, from `ip`, with the browser's cookies. */
function signIn(email: string, password: string, { ip = "203.0.113.7", cookie = "" } = {}) {
  return authRoute.action(
    routeArgs(formRequest("/auth", { intent: "login", email, password }, { cookie, headers: { [CLIENT_ADDRESS_HEADER]: ip } })),
  ) as Promise<Response | { data: { result: { error?: Record<string, string[]> } } }>;
}

function formError(result: unknown): string | undefined {
  return (result as { data?: { result?: { error?: Record<string, string[]> } } }).data?.result?.error?.[""]?.[0];
}

function sessionFrom(response: unknown): string {
  expect(response).toBeInstanceOf(Response);
  return cookieFrom(response as Response);
}

describe("sign-in throttling", () => {
  it("cools an account down after the clinic's limit of failures, stored in the database, growing with each further failure", async () => {
    setSettings({ loginMaxFailures: 3 });
    const target = await loginAs("staff", { email: "alvo@seg.test", password: PASSWORD });
    for (let i = 0; i < 3; i++) expect(formError(await signIn(target.email, "errada", { ip: `198.51.100.${i}` }))).toBe("E-mail ou senha incorretos.");
    // The right password from a browser that never signed in here waits for the cool-down.
    expect(formError(await signIn(target.email, PASSWORD, { ip: "198.51.100.9" }))).toBe(
      "Muitas tentativas de acesso. Aguarde alguns minutos e tente novamente.",
    );
    const row = db.select().from(loginThrottle).where(eq(loginThrottle.key, `account:${target.email}`)).get()!;
    expect(row.failures).toBe(3);
    expect(row.lockedUntil!.getTime() - Date.now()).toBeGreaterThan(50_000);
    expect(row.lockedUntil!.getTime() - Date.now()).toBeLessThanOrEqual(60_000);

    // A restart loses nothing: the state is read from the database by a fresh module.
    vi.resetModules();
    const fresh = await import("~/routes/auth");
    const again = await fresh.action(
      routeArgs(formRequest("/auth", { intent: "login", email: target.email, password: PASSWORD }, { headers: { [CLIENT_ADDRESS_HEADER]: "198.51.100.10" } })),
    );
    expect(formError(again)).toMatch(/^Muitas tentativas/);

    // The cool-down ends (never a permanent lock) …
    db.update(loginThrottle).set({ lockedUntil: new Date(Date.now() - 1) }).where(eq(loginThrottle.key, `account:${target.email}`)).run();
    expect(await signIn(target.email, PASSWORD, { ip: "198.51.100.11" })).toBeInstanceOf(Response);
    // … and grows: 1, 2, 4 … minutes, at most 30.
    expect([3, 4, 5, 6, 20].map((n) => coolDownFor(n, 3) / 60_000)).toEqual([1, 2, 4, 8, 30]);
    expect(coolDownFor(2, 3)).toBe(0);
    setSettings({ loginMaxFailures: 5 });
  });

  it("limits an address flooding made-up e-mails, without evicting the real accounts' entries", { timeout: 60_000 }, async () => {
    const real = await loginAs("staff", { email: "real@seg.test", password: PASSWORD });
    await signIn(real.email, "errada", { ip: "192.0.2.50" });
    // 5 × 10 failures from one address, each for a different made-up e-mail.
    for (let i = 0; i < 50; i++) await signIn(`inventado${i}@seg.test`, "x", { ip: "192.0.2.99" });
    expect(formError(await signIn("mais-um@seg.test", "x", { ip: "192.0.2.99" }))).toMatch(/^Muitas tentativas/);
    // A thousand more made-up keys later, the real account's count is still there.
    for (let i = 0; i < 1000; i++) noteFailure({ keys: [{ key: `account:flood${i}@seg.test`, limit: 5 }] });
    expect(db.select().from(loginThrottle).where(eq(loginThrottle.key, `account:${real.email}`)).get()?.failures).toBe(1);
    // Other addresses are not affected.
    expect(await signIn(real.email, PASSWORD, { ip: "192.0.2.51" })).toBeInstanceOf(Response);
  });

  it("never locks the real user out of a browser they signed in on before", async () => {
    const user = await loginAs("doctor", { email: "dono@seg.test", password: PASSWORD });
    const first = (await signIn(user.email, PASSWORD)) as Response;
    const browser = cookieFrom(first);
    expect(browser).toMatch(/sinapse_device=/);
    // Strangers lock the account for everyone else.
    for (let i = 0; i < 8; i++) await signIn(user.email, "chute", { ip: `10.9.8.${i}` });
    expect(formError(await signIn(user.email, PASSWORD, { ip: "10.9.8.200" }))).toMatch(/^Muitas tentativas/);
    // The owner's browser still gets in.
    expect(await signIn(user.email, PASSWORD, { cookie: browser })).toBeInstanceOf(Response);
  });

  it("answers unknown and known e-mails with the same message in about the same time, and audits every attempt", { timeout: 30_000 }, async () => {
    const known = await loginAs("staff", { email: "conhecido@seg.test", password: PASSWORD });
    const time = async (email: string) => {
      const started = performance.now();
      const result = await signIn(email, "senha-errada-qualquer", { ip: `172.16.0.${Math.floor(Math.random() * 200)}` });
      return { ms: performance.now() - started, message: formError(result) };
    };
    await time("aquecimento@seg.test");
    const unknownRuns = [await time("ninguem1@seg.test"), await time("ninguem2@seg.test"), await time("ninguem3@seg.test")];
    const knownRuns = [await time(known.email), await time(known.email), await time(known.email)];
    expect(new Set([...unknownRuns, ...knownRuns].map((r) => r.message))).toEqual(new Set(["E-mail ou senha incorretos."]));
    const median = (runs: { ms: number }[]) => runs.map((r) => r.ms).sort((a, b) => a - b)[1];
    expect(Math.abs(median(unknownRuns) - median(knownRuns))).toBeLessThan(Math.max(median(knownRuns), median(unknownRuns)) * 0.6);

    const attempts = db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "login_failed"), like(auditLog.changes, '%"email":"conhecido@seg.test"%')))
      .all();
    expect(attempts).toHaveLength(3);
    expect(attempts[0]).toMatchObject({ userId: known.id, changes: { email: known.email, reason: "password" } });
    expect(attempts[0].ip).toMatch(/^172\.16\.0\./);
    const unknown = db.select().from(auditLog).where(like(auditLog.changes, '%"email":"ninguem1@seg.test"%')).get();
    expect(unknown).toMatchObject({ action: "login_failed", userId: null });
    expect(JSON.stringify(attempts)).not.toContain("senha-errada-qualquer");
  });
});

describe("sessions", () => {
  it("end after the idle timeout set in Configurações → Segurança", async () => {
    setSettings({ sessionIdleMinutes: 10 });
    const start = new Date();
    const cookie = cookieOf(await createUserSession(getRequest("/auth"), admin.id, { now: start }));
    const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
    expect(await getSessionUser(getRequest("/", { cookie }), at(9))).not.toBeNull();
    expect(await getSessionUser(getRequest("/", { cookie }), at(18))).not.toBeNull(); // used at 9: idle 9 min
    expect(await getSessionUser(getRequest("/", { cookie }), at(29))).toBeNull(); // idle 11 min
    expect(db.select().from(sessions).all().some((s) => s.lastSeenAt.getTime() === at(18).getTime())).toBe(false);
    setSettings({ sessionIdleMinutes: 30 });
  });

  it("end at the absolute lifetime however much they are used, and expired ones are purged", async () => {
    setSettings({ sessionMaxHours: 1 });
    const start = new Date();
    const cookie = cookieOf(await createUserSession(getRequest("/auth"), admin.id, { now: start }));
    for (const minutes of [20, 40, 59]) {
      expect(await getSessionUser(getRequest("/", { cookie }), new Date(start.getTime() + minutes * 60_000))).not.toBeNull();
    }
    expect(await getSessionUser(getRequest("/", { cookie }), new Date(start.getTime() + 61 * 60_000))).toBeNull();

    const stale = cookieOf(await createUserSession(getRequest("/auth"), admin.id, { now: new Date(Date.now() - 2 * 3_600_000) }));
    expect(purgeExpiredSessions()).toBeGreaterThan(0);
    expect(await getSessionUser(getRequest("/", { cookie: stale }))).toBeNull();
    setSettings({ sessionMaxHours: 12 });
  });

  it("get a new id at login, and a new login ends the browser's previous session", { timeout: 20_000 }, async () => {
    const user = await loginAs("staff", { email: "rotacao@seg.test", password: PASSWORD });
    const before = user.cookie;
    const response = (await signIn(user.email, PASSWORD, { cookie: before })) as Response;
    const after = cookieFrom(response, before);
    expect(after).not.toContain(before);
    expect(await getSessionUser(getRequest("/", { cookie: before }))).toBeNull();
    expect(await getSessionUser(getRequest("/", { cookie: after }))).not.toBeNull();
  });

  it("end when an administrator changes the user's role (a privilege change never keeps the session id)", async () => {
    const user = await loginAs("staff", { email: "promovido@seg.test", password: PASSWORD });
    setUserRole(admin.id, user.id, "doctor");
    expect(await getSessionUser(getRequest("/", { cookie: user.cookie }))).toBeNull();
  });

  it("uses the __Host- cookie with Secure over HTTPS", async () => {
    const setCookie = await createUserSession(new Request("https://clinica.example/auth"), admin.id);
    expect(setCookie).toMatch(/^__Host-sinapse_session=/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Domain/i);
    const user = await getSessionUser(new Request("https://clinica.example/", { headers: { Cookie: cookieOf(setCookie) } }));
    expect(user?.id).toBe(admin.id);
  });
});

async function post(cookie: string, fields: Record<string, string | number>) {
  try {
    return await settingsRoute.action(routeArgs(formRequest("/settings", fields, { cookie })));
  } catch (error) {
    return thrownResponse(Promise.reject(error));
  }
}

async function enrol(user: SignedIn): Promise<{ secret: string; codes: string[]; cookie: string }> {
  expect(statusOf(await post(user.cookie, { intent: "mfa-start" }))).toBe(302);
  const page = (await settingsRoute.loader(routeArgs(getRequest("/settings?tab=seguranca", { cookie: user.cookie })))) as unknown as {
    data: { security: { enrolment: { svg: string; secret: string } } };
  };
  expect(page.data.security.enrolment.svg).toMatch(/^<svg/);
  const secret = page.data.security.enrolment.secret.replace(/\s/g, "");
  expect(statusOf(await post(user.cookie, { intent: "mfa-verify", code: "000000" }))).toBe(400);
  const done = (await post(user.cookie, { intent: "mfa-verify", code: await generate({ secret }) })) as Response;
  expect(done.status).toBe(302);
  const cookie = cookieFrom(done, user.cookie);
  // The session got a new id; the codes come once, through the page.
  expect(await getSessionUser(getRequest("/", { cookie: user.cookie }))).toBeNull();
  const shown = (await settingsRoute.loader(routeArgs(getRequest("/settings?tab=seguranca", { cookie })))) as unknown as {
    data: { security: { recoveryCodes: string[] } };
    init: { headers: Record<string, string> };
  };
  const codes = shown.data.security.recoveryCodes;
  expect(codes).toHaveLength(10);
  expect(shown.init.headers["Set-Cookie"]).toMatch(/Max-Age=0/);
  return { secret, codes, cookie };
}

describe("TOTP second factor", () => {
  it("enrols with a QR code, stores the secret encrypted and the ten recovery codes hashed", async () => {
    const user = await loginAs("staff", { email: "mfa@seg.test", password: PASSWORD });
    const { secret, codes } = await enrol(user);
    const factor = db.select().from(mfaFactors).where(eq(mfaFactors.userId, user.id)).get()!;
    expect(factor.verifiedAt).not.toBeNull();
    expect(factor.secretEncrypted).not.toContain(secret);
    const stored = db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id)).all();
    expect(stored).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace("-", ""));
  });

  it("asks for the code at sign-in; the half-signed-in session opens nothing; a code is never accepted twice", { timeout: 20_000 }, async () => {
    const user = await loginAs("staff", { email: "segundo-passo@seg.test", password: PASSWORD });
    const { secret, codes } = await enrol(user);
    const afterPassword = (await signIn(user.email, PASSWORD)) as Response;
    expect(afterPassword.headers.get("Location")).toBe("/auth");
    const pending = cookieFrom(afterPassword);
    expect(await getSessionUser(getRequest("/dashboard", { cookie: pending }))).toBeNull();
    expect(await authRoute.loader(routeArgs(getRequest("/auth", { cookie: pending })))).toMatchObject({ step: "mfa" });

    const wrong = await authRoute.action(routeArgs(formRequest("/auth", { intent: "mfa", code: "123456" }, { cookie: pending })));
    expect(statusOf(wrong)).toBe(400);
    // The enrolment used this time step's code; the next step's code (within the tolerance) is new.
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const done = (await authRoute.action(
      routeArgs(formRequest("/auth", { intent: "mfa", code, redirectTo: "/patients" }, { cookie: pending })),
    )) as Response;
    expect(done.headers.get("Location")).toBe("/patients");
    const signedIn = cookieFrom(done, pending);
    expect(await getSessionUser(getRequest("/", { cookie: signedIn }))).toMatchObject({ id: user.id });
    expect(await getSessionUser(getRequest("/", { cookie: pending }))).toBeNull();

    // The same code again (a replay) is refused; a recovery code works once.
    const replay = cookieFrom((await signIn(user.email, PASSWORD)) as Response);
    expect(statusOf(await authRoute.action(routeArgs(formRequest("/auth", { intent: "mfa", code }, { cookie: replay }))))).toBe(400);
    const recovered = await authRoute.action(routeArgs(formRequest("/auth", { intent: "mfa", code: codes[0].toUpperCase() }, { cookie: replay })));
    expect(statusOf(recovered)).toBe(302);
    const again = cookieFrom((await signIn(user.email, PASSWORD)) as Response);
    expect(statusOf(await authRoute.action(routeArgs(formRequest("/auth", { intent: "mfa", code: codes[0] }, { cookie: again }))))).toBe(400);
  });

  it("stops accepting codes after five wrong ones", async () => {
    const user = await loginAs("staff", { email: "chutes-mfa@seg.test", password: PASSWORD });
    const { secret } = await enrol(user);
    const pending = cookieFrom((await signIn(user.email, PASSWORD)) as Response);
    for (let i = 0; i < 5; i++) await authRoute.action(routeArgs(formRequest("/auth", { intent: "mfa", code: "000000" }, { cookie: pending })));
    const right = await authRoute.action(routeArgs(formRequest("/auth", { intent: "mfa", code: await generate({ secret }) }, { cookie: pending })));
    expect(formError(right)).toMatch(/^Muitas tentativas/);
  });

  it("is removed only with the current password", async () => {
    const user = await loginAs("doctor", { email: "remover-mfa@seg.test", password: PASSWORD });
    const { cookie } = await enrol(user);
    expect(statusOf(await post(cookie, { intent: "mfa-remove", currentPassword: "errada" }))).toBe(400);
    expect(db.select().from(mfaFactors).where(eq(mfaFactors.userId, user.id)).get()).toBeDefined();
    expect(statusOf(await post(cookie, { intent: "mfa-remove", currentPassword: PASSWORD }))).toBe(302);
    expect(db.select().from(mfaFactors).where(eq(mfaFactors.userId, user.id)).get()).toBeUndefined();
    expect(db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id)).all()).toHaveLength(0);
  });

  it("can be required of administrators, only by one who has it; one without it is sent to set it up", async () => {
    const other = await loginAs("admin", { email: "admin2@seg.test", password: PASSWORD });
    expect(statusOf(await post(other.cookie, { intent: "update-security", passwordMinLength: 8, sessionIdleMinutes: 30, sessionMaxHours: 12, loginMaxFailures: 5, mfaRequiredForAdmins: "on" }))).toBe(400);
    const { cookie } = await enrol(other);
    expect(statusOf(await post(cookie, { intent: "update-security", passwordMinLength: 8, sessionIdleMinutes: 30, sessionMaxHours: 12, loginMaxFailures: 5, mfaRequiredForAdmins: "on" }))).toBe(302);
    const sent = await thrownResponse(requireUser(getRequest("/patients", { cookie: admin.cookie })));
    expect(sent.headers.get("Location")).toBe(MFA_SETUP_URL);
    expect((await requireUser(getRequest("/settings?tab=seguranca", { cookie: admin.cookie }))).id).toBe(admin.id);
    expect((await requireUser(getRequest("/patients", { cookie }))).id).toBe(other.id);
    setSettings({ mfaRequiredForAdmins: false });
  });
});

describe("credentials and roles", () => {
  it("refuses security settings out of range (at most 10 failures)", async () => {
    const refused = await post(admin.cookie, { intent: "update-security", passwordMinLength: 8, sessionIdleMinutes: 2, sessionMaxHours: 30, loginMaxFailures: 11 });
    expect(statusOf(refused)).toBe(400);
    expect(db.select().from(clinicSettings).get()!.loginMaxFailures).toBe(5);
  });

  it("lets an administrator require a new password: sessions end, the next sign-in must set one first", async () => {
    const user = await loginAs("staff", { email: "reset@seg.test", password: PASSWORD });
    expect(statusOf(await post(admin.cookie, { intent: "force-password-reset", userId: user.id }))).toBe(302);
    expect(await getSessionUser(getRequest("/", { cookie: user.cookie }))).toBeNull();
    const pending = cookieFrom((await signIn(user.email, PASSWORD)) as Response);
    expect(await getSessionUser(getRequest("/", { cookie: pending }))).toBeNull();
    expect(await authRoute.loader(routeArgs(getRequest("/auth", { cookie: pending })))).toMatchObject({ step: "password" });
    const mismatch = await authRoute.action(
      routeArgs(formRequest("/auth", { intent: "new-password", newPassword: "nova-senha-segura", confirmPassword: "outra" }, { cookie: pending })),
    );
    expect(statusOf(mismatch)).toBe(400);
    const done = (await authRoute.action(
      routeArgs(formRequest("/auth", { intent: "new-password", newPassword: "nova-senha-segura", confirmPassword: "nova-senha-segura" }, { cookie: pending })),
    )) as Response;
    expect(done.status).toBe(302);
    expect(await getSessionUser(getRequest("/", { cookie: cookieFrom(done, pending) }))).toMatchObject({ id: user.id });
    expect(db.select().from(users).where(eq(users.id, user.id)).get()!.mustChangePassword).toBe(false);
    expect(statusOf(await signIn(user.email, "nova-senha-segura"))).toBe(302);
  });

  it("lets nobody grant themselves a role or act on another user's credentials", async () => {
    const staff = await loginAs("staff", { email: "equipe@seg.test", password: PASSWORD });
    const victim = await loginAs("doctor", { email: "vitima@seg.test", password: PASSWORD });
    const attempts: Record<string, string | number>[] = [
      { intent: "set-role", userId: staff.id, role: "admin" },
      { intent: "set-role", userId: victim.id, role: "" },
      { intent: "force-password-reset", userId: victim.id },
      { intent: "update-security", passwordMinLength: 8, sessionIdleMinutes: 480, sessionMaxHours: 24, loginMaxFailures: 10 },
    ];
    for (const fields of attempts) expect(statusOf(await post(staff.cookie, fields))).toBe(403);
    // Own-account intents ignore any other user id sent along: they act on the session's user.
    const change = await post(staff.cookie, { intent: "change-password", userId: victim.id, currentPassword: PASSWORD, newPassword: "trocada-123", confirmPassword: "trocada-123" });
    expect(statusOf(change)).toBe(302);
    expect(statusOf(await signIn(victim.email, PASSWORD, { ip: "10.1.1.1" }))).toBe(302);
    expect(statusOf(await signIn(staff.email, "trocada-123", { ip: "10.1.1.2" }))).toBe(302);
    await post(staff.cookie, { intent: "mfa-start", userId: victim.id });
    expect(db.select().from(mfaFactors).where(eq(mfaFactors.userId, victim.id)).get()).toBeUndefined();
    // An administrator cannot require a reset of their own account (that is 'Alterar senha').
    expect(statusOf(await post(admin.cookie, { intent: "force-password-reset", userId: admin.id }))).toBe(400);
  });

  it("a password change ends the user's other sessions and gives this one a new id", async () => {
    const user = await loginAs("doctor", { email: "troca@seg.test", password: PASSWORD });
    const other = cookieOf(await createUserSession(getRequest("/auth"), user.id));
    const done = (await post(user.cookie, { intent: "change-password", currentPassword: PASSWORD, newPassword: "nova-123456", confirmPassword: "nova-123456" })) as Response;
    expect(done.status).toBe(302);
    expect(await getSessionUser(getRequest("/", { cookie: other }))).toBeNull();
    expect(await getSessionUser(getRequest("/", { cookie: user.cookie }))).toBeNull();
    expect(await getSessionUser(getRequest("/", { cookie: cookieFrom(done, user.cookie) }))).toMatchObject({ id: user.id });
  });
});
