/**
 * The Google connection against a fake Google (tests/support/fake-google.ts) with the real
 * googleapis client: the OAuth flow through the routes, the state's binding, sealed tokens,
 * refresh, disconnect.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { documents, googleConnections, googleDriveFiles, googleOauthStates } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { assertTokenKeyForConnection, googleConfig, openToken } from "~/.server/google";
import { listCalendars } from "~/.server/google-calendar";
import { newStorageName, storedPath } from "~/.server/uploads";
import * as drivePage from "~/routes/google-drive";
import * as formsPage from "~/routes/google-forms";
import * as sendApi from "~/routes/api/google-drive-send-document";
import * as uploadApi from "~/routes/api/google-drive-upload";
import * as calendarPage from "~/routes/google-calendar";
import * as callback from "~/routes/google-oauth-callback";
import * as disconnectApi from "~/routes/api/google-auth-disconnect";
import * as listApi from "~/routes/api/google-calendar-list";
import * as start from "~/routes/api/google-auth-start";
import * as statusApi from "~/routes/api/google-auth-status";
import { type FakeGoogle, useFakeGoogle } from "../support/fake-google";
import { type SignedIn, formRequest, getRequest, insertPatient, loginAs, routeArgs, sessionCookie, statusOf, thrownResponse } from "../support/fixtures";

let fake: FakeGoogle;
let admin: SignedIn;
let staff: SignedIn;
let doctor: SignedIn;
let stopFake: () => Promise<void>;

beforeAll(async () => {
  ({ fake, stop: stopFake } = await useFakeGoogle());
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctor = await loginAs("doctor");
});

afterAll(() => stopFake());

beforeEach(() => {
  db.delete(googleConnections).run();
  db.delete(googleOauthStates).run();
});

async function loaderOf(mod: { loader: (args: never) => unknown }, path: string, cookie: string) {
  try {
    return await mod.loader(routeArgs(getRequest(path, { cookie })));
  } catch (error) {
    return error;
  }
}

/** Start → the fake's consent page → the callback URL Google sends the browser to. */
async function authorize(cookie: string): Promise<string> {
  const started = (await loaderOf(start, "/api/google/auth/start?returnTo=/google-drive", cookie)) as Response;
  expect(started.status).toBe(302);
  const consent = new URL(started.headers.get("Location")!);
  expect(consent.origin + consent.pathname).toBe(`${fake.url}/o/oauth2/v2/auth`);
  expect(consent.searchParams.get("access_type")).toBe("offline");
  expect(consent.searchParams.get("prompt")).toBe("consent");
  expect(consent.searchParams.get("code_challenge_method")).toBe("S256");
  const answer = await fetch(consent, { redirect: "manual" });
  const back = new URL(answer.headers.get("Location")!);
  return back.pathname + back.search;
}

type CallbackData = { status: string; message: string; returnTo: string };
function callbackData(result: unknown): { status: number; data: CallbackData } {
  const wrapped = result as { type?: string; init?: { status?: number }; data?: CallbackData };
  if (wrapped?.type === "DataWithResponseInit") return { status: wrapped.init?.status ?? 200, data: wrapped.data! };
  return { status: 200, data: result as CallbackData };
}

async function connect() {
  const result = await loaderOf(callback, await authorize(admin.cookie), admin.cookie);
  expect(callbackData(result).data.status).toBe("success");
}

describe("the OAuth connection", () => {
  it("connects through start and callback (PKCE, offline, consent) and keeps the tokens sealed", async () => {
    const returned = await authorize(admin.cookie);
    const result = callbackData(await loaderOf(callback, returned, admin.cookie));
    expect(result).toEqual({ status: 200, data: expect.objectContaining({ status: "success", message: "Google Calendar conectado com sucesso!", returnTo: "/google-drive" }) });

    const row = db.select().from(googleConnections).get()!;
    expect(row.email).toBe("clinica@example.com");
    const [refreshToken] = [...fake.refreshTokens];
    // Neither token is in the database as itself, in any column.
    const raw = JSON.stringify(sqlite.prepare("select * from google_connections").all());
    expect(raw).not.toContain(refreshToken);
    expect(raw).not.toContain("ya29.fake-access-");
    expect(openToken(row.refreshToken!)).toBe(refreshToken);
    // The PKCE verifier is sealed too, and the state is gone once used.
    expect(db.select().from(googleOauthStates).all()).toEqual([]);

    const status = (await loaderOf(statusApi, "/api/google/auth/status", staff.cookie)) as Response;
    expect(await status.json()).toEqual({ connected: true });
  });

  it("refuses a forged state, a replayed one, one from another session and Google's error", async () => {
    const forged = callbackData(await loaderOf(callback, "/google/oauth/callback?code=4/x&state=forjado", admin.cookie));
    expect(forged).toEqual({ status: 400, data: expect.objectContaining({ status: "error", message: "Sessão não encontrada" }) });

    const returned = await authorize(admin.cookie);
    const otherSession = await sessionCookie(admin.id);
    expect(callbackData(await loaderOf(callback, returned, otherSession)).data.message).toBe("Sessão não encontrada");
    // Used (and refused) once: the same state is refused again, even from the right session.
    expect(callbackData(await loaderOf(callback, returned, admin.cookie)).data.message).toBe("Sessão não encontrada");

    const good = await authorize(admin.cookie);
    expect(callbackData(await loaderOf(callback, good, admin.cookie)).data.status).toBe("success");
    expect(callbackData(await loaderOf(callback, good, admin.cookie)).data.message).toBe("Sessão não encontrada");

    expect(callbackData(await loaderOf(callback, "/google/oauth/callback?error=access_denied&state=x", admin.cookie)).data.message).toBe(
      "Erro de autenticação: access_denied",
    );
    expect(callbackData(await loaderOf(callback, "/google/oauth/callback", admin.cookie)).data.message).toBe(
      "Código de autenticação ou estado não encontrado",
    );
    // A code swapped for another flow's (wrong PKCE verifier) fails at Google's token endpoint.
    const mine = new URL(await authorize(admin.cookie), "http://localhost");
    const theirs = new URL(await authorize(admin.cookie), "http://localhost");
    mine.searchParams.set("code", theirs.searchParams.get("code")!);
    expect(callbackData(await loaderOf(callback, mine.pathname + mine.search, admin.cookie)).data.message).toBe("Falha ao completar autenticação");
  });

  it("lets only an administrator connect", async () => {
    const refused = await thrownResponse(Promise.resolve().then(() => start.loader(routeArgs(getRequest("/api/google/auth/start", { cookie: staff.cookie })))));
    expect(refused.status).toBe(403);
  });

  it("refreshes an expired access token and saves the new one, sealed", async () => {
    await connect();
    const before = db.select().from(googleConnections).get()!;
    db.update(googleConnections).set({ tokenExpiresAt: new Date(Date.now() - 60_000) }).run();
    const refreshesBefore = fake.requests.filter((r) => r.pathname === "/token" && r.body.toString().includes("grant_type=refresh_token")).length;

    const calendars = await listCalendars();
    expect(calendars?.map((c) => c.summary)).toEqual(["Clínica Sinapse", "Cirurgias"]);

    const refreshes = fake.requests.filter((r) => r.pathname === "/token" && r.body.toString().includes("grant_type=refresh_token")).length;
    expect(refreshes).toBe(refreshesBefore + 1);
    const after = db.select().from(googleConnections).get()!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(openToken(after.accessToken!)).toMatch(/^ya29\.fake-access-/);
    expect(after.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    // The calendar call carried the new token.
    const lastList = fake.requests.filter((r) => r.pathname === "/calendar/v3/users/me/calendarList").at(-1)!;
    expect(lastList.authorization).toBe(`Bearer ${openToken(after.accessToken!)}`);
  });

  it("lists the calendars as { calendars: [{ id, summary, description, timeZone }] }", async () => {
    const before = (await loaderOf(listApi, "/api/google/calendar/list", staff.cookie)) as { init: { status: number } };
    expect(before.init.status).toBe(409);
    await connect();
    const answer = (await loaderOf(listApi, "/api/google/calendar/list", staff.cookie)) as Response;
    expect(await answer.json()).toEqual({
      calendars: [
        { id: "clinica@example.com", summary: "Clínica Sinapse", description: "Agenda principal da clínica", timeZone: "America/Sao_Paulo" },
        { id: "cirurgias@group.calendar.google.com", summary: "Cirurgias", description: "", timeZone: "America/Sao_Paulo" },
      ],
    });
    fake.failNext.push(403);
    const page = (await loaderOf(calendarPage, "/google-calendar", staff.cookie)) as { loadError: string | null };
    expect(page.loadError).toBe("Falha ao carregar calendários");
  });

  it("disconnects: revokes at Google, then deletes the tokens", async () => {
    await connect();
    const refreshToken = openToken(db.select().from(googleConnections).get()!.refreshToken!);
    const response = (await disconnectApi.action(routeArgs(formRequest("/api/google/auth/disconnect", {}, { cookie: admin.cookie })))) as Response;
    expect(await response.json()).toEqual({ success: true });
    const revoke = fake.requests.findLast((r) => r.pathname === "/revoke")!;
    expect(decodeURIComponent(revoke.path + revoke.body.toString())).toContain(refreshToken);
    expect(fake.refreshTokens.has(refreshToken)).toBe(false);
    expect(db.select().from(googleConnections).all()).toEqual([]);
    const status = (await loaderOf(statusApi, "/api/google/auth/status", staff.cookie)) as Response;
    expect(await status.json()).toEqual({ connected: false });
  });

  it("says plainly when it is not configured, and refuses to start without the key while connected", async () => {
    await connect();
    const key = process.env.GOOGLE_TOKEN_KEY;
    delete process.env.GOOGLE_TOKEN_KEY;
    try {
      expect(googleConfig()).toBeNull();
      expect(() => assertTokenKeyForConnection()).toThrow(/GOOGLE_TOKEN_KEY/);
      const page = (await loaderOf(calendarPage, "/google-calendar", admin.cookie)) as { view: { configured: boolean; notConfiguredText: string } };
      expect(page.view.configured).toBe(false);
      expect(page.view.notConfiguredText).toContain("não está configurada");
    } finally {
      process.env.GOOGLE_TOKEN_KEY = key;
    }
    db.delete(googleConnections).run();
    delete process.env.GOOGLE_TOKEN_KEY;
    expect(() => assertTokenKeyForConnection()).not.toThrow();
    process.env.GOOGLE_TOKEN_KEY = key;
  });
});

function multipart(path: string, cookie: string, file: { name: string; type: string; bytes: Uint8Array } | null) {
  const form = new FormData();
  if (file) form.append("file", new Blob([Buffer.from(file.bytes)], { type: file.type }), file.name);
  return new Request(new URL(path, "http://localhost"), { method: "POST", body: form, headers: { Cookie: cookie, Origin: "http://localhost" } });
}

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

describe("Drive and Forms", () => {
  it("uploads a file to Drive (streamed, limit and type enforced) and keeps its row", async () => {
    await connect();
    const answer = (await uploadApi.action(routeArgs(multipart("/api/google/drive/upload", staff.cookie, { name: "laudo.pdf", type: "application/pdf", bytes: PDF })))) as Response;
    expect(answer.status).toBe(201);
    const row = (await answer.json()) as { id: number; name: string; drive_file_id: string; size_bytes: number };
    expect(row).toEqual(expect.objectContaining({ name: "laudo.pdf", size_bytes: PDF.length }));
    const sent = fake.files.find((f) => f.id === row.drive_file_id)!;
    expect(sent.content.equals(Buffer.from(PDF))).toBe(true);
    expect(sent.mimeType).toBe("application/pdf");
    expect(db.select().from(googleDriveFiles).where(eq(googleDriveFiles.id, row.id)).get()?.driveFileId).toBe(row.drive_file_id);

    const statusOfUpload = async (cookie: string, file: Parameters<typeof multipart>[2]) => {
      const result = await uploadApi.action(routeArgs(multipart("/api/google/drive/upload", cookie, file))).catch((error: unknown) => error);
      return statusOf(result);
    };
    expect(await statusOfUpload(staff.cookie, { name: "script.pdf", type: "application/pdf", bytes: new TextEncoder().encode("#!/bin/sh\necho oi\n") })).toBe(415);
    expect(await statusOfUpload(staff.cookie, { name: "grande.pdf", type: "application/pdf", bytes: new Uint8Array(21 * 1024 * 1024) })).toBe(413);
    expect(await statusOfUpload(staff.cookie, null)).toBe(400);
    expect(await statusOfUpload(doctor.cookie, { name: "laudo.pdf", type: "application/pdf", bytes: PDF })).toBe(403);
    fake.failNext.push(403);
    expect(await statusOfUpload(staff.cookie, { name: "laudo.pdf", type: "application/pdf", bytes: PDF })).toBe(502);
    // Nothing is left behind in the documents directory's temporary files.
    expect(fs.readdirSync(process.env.DOCUMENTS_DIR!).filter((name) => name.startsWith(".upload-"))).toEqual([]);

    const page = (await loaderOf(drivePage, "/google-drive", doctor.cookie)) as { rows: { name: string }[]; canUpload: boolean };
    expect(page.rows[0].name).toBe("laudo.pdf");
    expect(page.canUpload).toBe(false);
  });

  it("sends a patient's document to the patient's own Drive folder, once", async () => {
    await connect();
    const patientId = insertPatient("Joana Drive da Silva");
    const storageName = newStorageName();
    fs.mkdirSync(process.env.DOCUMENTS_DIR!, { recursive: true });
    fs.writeFileSync(storedPath(storageName), PDF);
    const documentId = db
      .insert(documents)
      .values({ patientId, category: "exame", originalName: "ressonancia.pdf", mimeType: "application/pdf", sizeBytes: PDF.length, sha256: createHash("sha256").update(PDF).digest("hex"), storageName })
      .returning({ id: documents.id })
      .get().id;
    const send = () =>
      sendApi.action(routeArgs(formRequest(`/api/google/drive/send-document?returnTo=/patients/${patientId}`, { intent: "send", id: documentId }, { cookie: staff.cookie })));
    const first = (await send()) as Response;
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe(`/patients/${patientId}`);
    const folder = fake.files.find((f) => f.mimeType === "application/vnd.google-apps.folder" && f.name.includes("Joana Drive da Silva"))!;
    const copy = fake.files.find((f) => f.name === "ressonancia.pdf")!;
    expect(copy.parents).toEqual([folder.id]);
    expect(copy.content.equals(Buffer.from(PDF))).toBe(true);
    const rows = db.select().from(googleDriveFiles).where(eq(googleDriveFiles.patientId, patientId)).all();
    expect(rows.map((r) => r.mimeType).sort()).toEqual(["application/pdf", "application/vnd.google-apps.folder"]);
    // Sent once: the second time is refused with a message, and no file reaches Drive.
    const filesBefore = fake.files.length;
    expect(statusOf(await send())).toBe(400);
    expect(fake.files.length).toBe(filesBefore);
  });

  it("creates a form through the Forms API and lists the forms newest first", async () => {
    await connect();
    const create = (title: string, cookie = staff.cookie) =>
      formsPage.action(routeArgs(formRequest("/google-forms", { intent: "create", title }, { cookie }))).catch((error: unknown) => error);
    expect(statusOf(await create("Triagem de coluna"))).toBe(302);
    expect(statusOf(await create("Satisfação pós-operatória"))).toBe(302);
    expect(statusOf(await create("   "))).toBe(400);
    expect(statusOf(await create("Do médico", doctor.cookie))).toBe(403);
    expect(fake.forms.map((f) => f.title)).toEqual(["Triagem de coluna", "Satisfação pós-operatória"]);
    const page = (await loaderOf(formsPage, "/google-forms", doctor.cookie)) as { rows: { title: string; responderUri: string | null }[]; canCreate: boolean };
    expect(page.rows.map((r) => r.title)).toEqual(["Satisfação pós-operatória", "Triagem de coluna"]);
    expect(page.rows[0].responderUri).toMatch(/^https:\/\/docs\.google\.com\/forms\/d\/e\/fakeform/);
    expect(page.canCreate).toBe(false);
  });
});
