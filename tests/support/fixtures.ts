/**
 * Shared fixtures for the unit and integration tests (Vitest): requests as a browser sends them,
 * signed-in users by role, and rows made through the models' own search keys. The database is
 * the fresh, migrated file tests/unit/setup.ts gives each test file.
 */
import { eq } from "drizzle-orm";
import { doctors, hospitals, patients, payers, userRoles } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { createUserSession } from "~/.server/session";
import type { Role } from "~/lib/permissions";
import { doctorSearchText } from "~/models/doctor.server";
import { hospitalSearchText } from "~/models/hospital.server";
import { patientSearchText } from "~/models/patient.server";
import { payerSearchText } from "~/models/payer.server";
import { createAccount, setUserRole } from "~/models/user.server";

// ------------------------------------------------------------------------------------------ requests

export const TEST_ORIGIN = "http://localhost";

type FormFields = Record<string, string | number | ReadonlyArray<string> | null | undefined>;

/** A GET request to `path` ('/pacientes?q=ana'), optionally with a Cookie header. */
export function getRequest(path: string, init: { cookie?: string; headers?: HeadersInit } = {}): Request {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("Cookie", init.cookie);
  return new Request(new URL(path, TEST_ORIGIN), { method: "GET", headers });
}

/**
 * A POST as a browser without JavaScript sends it: url-encoded fields, repeated keys for
 * arrays; null and undefined are left out, as an unchecked checkbox would be.
 */
export function formRequest(
  path: string,
  fields: FormFields,
  init: { cookie?: string; headers?: HeadersInit; method?: string } = {},
): Request {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) body.append(name, item);
    else body.append(name, String(value));
  }
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  if (init.cookie) headers.set("Cookie", init.cookie);
  headers.set("Origin", TEST_ORIGIN);
  return new Request(new URL(path, TEST_ORIGIN), { method: init.method ?? "POST", headers, body });
}

/**
 * What a route module's loader or action receives for `request`. Typed `never` so it fits any
 * route's generated argument type without a cast at every call.
 */
export function routeArgs(request: Request, params: Record<string, string> = {}): never {
  return { request, params, context: {} } as never;
}

// ------------------------------------------------------------------------------------------ responses

/** The `name=value` pair of a Set-Cookie header, as the browser sends it back. */
export function cookieOf(setCookie: string): string {
  return setCookie.split(";")[0];
}

/**
 * The Cookie header a browser would send back after `response`: every Set-Cookie name=value,
 * merged over `previous` (a cookie set to an empty value or expired is dropped).
 */
export function cookieFrom(response: Response, previous = ""): string {
  const jar = new Map<string, string>();
  for (const pair of previous.split(/;\s*/).filter(Boolean)) {
    const eq = pair.indexOf("=");
    if (eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  for (const header of response.headers.getSetCookie()) {
    const [pair, ...attributes] = header.split(/;\s*/);
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const expired = attributes.some(
      (a) => /^max-age=(0|-\d+)$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) <= Date.now()),
    );
    if (expired || value === "") jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/**
 * The response a loader or action threw: a Response (redirect, 404 …) as is, a `data(…, { status })`
 * as a Response with that status and its data as JSON. Fails when nothing was thrown.
 */
export async function thrownResponse(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    const maybeData = error as { init?: { status?: number }; data?: unknown; type?: string };
    if (maybeData?.type === "DataWithResponseInit") return new Response(JSON.stringify(maybeData.data), maybeData.init ?? {});
    throw error;
  }
  throw new Error("expected a thrown response");
}

/** The status of what a loader or action returned: a Response's, a `data()`'s init status, else 200. */
export function statusOf(result: unknown): number {
  if (result instanceof Response) return result.status;
  const maybeData = result as { init?: { status?: number } | null; type?: string } | null;
  return maybeData?.type === "DataWithResponseInit" ? (maybeData.init?.status ?? 200) : 200;
}

// ------------------------------------------------------------------------------------------ accounts

export interface SignedIn {
  id: number;
  email: string;
  /** The Cookie header of a fresh session of this user. */
  cookie: string;
}

/** A new session for the user: the Cookie header a signed-in browser sends. */
export async function sessionCookie(userId: number): Promise<string> {
  return cookieOf(await createUserSession(getRequest("/auth"), userId));
}

let accountCount = 0;

/**
 * Creates an account with `role` (null: still awaiting one) through the product's own rules and
 * signs it in. The first account of a database always becomes admin, so sign in an admin first;
 * later roles are granted by that admin, as the users screen does.
 */
export async function loginAs(
  role: Role | null,
  account: { name?: string; email?: string; password?: string } = {},
): Promise<SignedIn> {
  accountCount += 1;
  const email = account.email ?? `${role ?? "pendente"}-${accountCount}@teste.local`;
  const created = await createAccount({
    name: account.name ?? `Conta ${role ?? "pendente"} ${accountCount}`,
    email,
    password: account.password ?? "senha-de-teste-123",
  });
  if (created.role !== role) {
    if (created.role === "admin") throw new Error(`loginAs(${role}): the first account of a database is an admin; sign in an admin first`);
    const admin = db.select({ id: userRoles.userId }).from(userRoles).where(eq(userRoles.role, "admin")).get();
    if (!admin) throw new Error("loginAs: no admin to grant the role");
    if (role) setUserRole(admin.id, created.id, role);
  }
  return { id: created.id, email: email.trim().toLowerCase(), cookie: await sessionCookie(created.id) };
}

// ------------------------------------------------------------------------------------------ rows

/** A patient row with the model's search key; only `name` is required. */
export function insertPatient(name: string, extra: Partial<typeof patients.$inferInsert> = {}): number {
  const row = { name, ...extra };
  return db
    .insert(patients)
    .values({ ...row, searchText: patientSearchText({ name, cpf: row.cpf ?? null, email: row.email ?? null, phone: row.phone ?? null }) })
    .returning({ id: patients.id })
    .get().id;
}

/** A doctor row with the model's search key (specialty 'Neurocirurgia', CRM '123456' unless given). */
export function insertDoctor(name: string, extra: Partial<typeof doctors.$inferInsert> = {}): number {
  const row = { name, specialty: "Neurocirurgia", crm: "123456", ...extra };
  const searchText = doctorSearchText({
    name,
    specialty: row.specialty,
    crm: row.crm,
    crmUf: (row.crmUf ?? null) as Parameters<typeof doctorSearchText>[0]["crmUf"],
    email: row.email ?? null,
    phone: row.phone ?? null,
  });
  return db.insert(doctors).values({ ...row, searchText }).returning({ id: doctors.id }).get().id;
}

/** A hospital row with the model's search key. */
export function insertHospital(name: string, extra: Partial<typeof hospitals.$inferInsert> = {}): number {
  const row = { name, type: "private" as const, ...extra };
  const searchText = hospitalSearchText({ name, city: row.city ?? null, cnpj: row.cnpj ?? null, type: row.type });
  return db.insert(hospitals).values({ ...row, searchText }).returning({ id: hospitals.id }).get().id;
}

/** A payer (convênio) row with the model's search key. */
export function insertPayer(name: string, extra: Partial<typeof payers.$inferInsert> = {}): number {
  const row = { name, type: "insurance" as const, ...extra };
  const searchText = payerSearchText({ name, cnpj: row.cnpj ?? null, contactEmail: row.contactEmail ?? null, type: row.type });
  return db.insert(payers).values({ ...row, searchText }).returning({ id: payers.id }).get().id;
}

// ------------------------------------------------------------------------------------------ query plans

/** The SQL statements `run` prepares (to read their plans with EXPLAIN QUERY PLAN). */
export function capturePrepared(run: () => void): string[] {
  const seen: string[] = [];
  const original = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    seen.push(source);
    return original(source);
  }) as typeof sqlite.prepare;
  try {
    run();
  } finally {
    sqlite.prepare = original;
  }
  return seen;
}
