import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appointments, automationRules, messageTemplates, messages, patients, tasks, whatsappConsents } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { PAGE_SIZE } from "~/lib/list-params";
import { parseWebhook, signBody, verifySignature, whatsappConfig } from "~/.server/whatsapp";
import { deliverDue, sweepInterrupted } from "~/.server/whatsapp-worker";
import { initialsOf, missingVariables, placeholdersOf, previewOf, renderTemplate, templateParameters } from "~/lib/message-template";
import { listRules, runAutomation } from "~/models/automation.server";
import { commsKpis, sendQuickMessage, sendReply } from "~/models/comms.server";
import { applyStatusEvent, customerWindow, listMessages, recentMessages, recordInbound } from "~/models/message.server";
import { action as sendAction } from "~/routes/api/comms-send";
import { action as webhookAction, loader as webhookLoader } from "~/routes/api/comms-webhook";
import { action as pageAction } from "~/routes/communication";
import { quickSendSchema, templateSchema } from "~/validation/comms";
import { type FakeWhatsApp, startFakeWhatsApp } from "../support/fake-whatsapp";
import { capturePrepared } from "../support/fixtures";
import { type SignedIn, TEST_ORIGIN, formRequest, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, statusOf } from "./helpers";

const SECRET = "segredo-do-app";
const HOUR = 3_600_000;

let fake: FakeWhatsApp;
let admin: SignedIn;
let staff: SignedIn;
let doctor: SignedIn;
let approvedId: number;
let draftId: number;
let patientId: number;
let noOptInId: number;
let landlineId: number;
let doctorId: number;

beforeAll(async () => {
  fake = await startFakeWhatsApp();
  process.env.WHATSAPP_TOKEN = "token-de-teste";
  process.env.WHATSAPP_PHONE_NUMBER_ID = "1234567890";
  process.env.WHATSAPP_API_URL = fake.url;
  process.env.WHATSAPP_APP_SECRET = SECRET;
  process.env.WHATSAPP_VERIFY_TOKEN = "verifica-123";
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  doctor = await loginAs("doctor");
  approvedId = db
    .insert(messageTemplates)
    .values({
      title: "Lembrete",
      category: "agendamento",
      status: "aprovado",
      body: "Olá, {{paciente.nome}} ({{paciente.iniciais}})! Consulta com {{medico.nome}} em {{data}} às {{horario}}, {{local}}.",
      metaName: "lembrete_consulta",
    })
    .returning()
    .get().id;
  draftId = db
    .insert(messageTemplates)
    .values({ title: "Rascunho", category: "pos_consulta", status: "rascunho", body: "Oi {{paciente.nome}}" })
    .returning()
    .get().id;
  patientId = insertPatient("Maria da Silva Souza", { phone: "11987654321", whatsappOptIn: true, dateOfBirth: "1980-05-17" });
  noOptInId = insertPatient("João Sem Consentimento", { phone: "11987650000", whatsappOptIn: false });
  landlineId = insertPatient("Ana Fixo", { phone: "1134567890", whatsappOptIn: true });
  doctorId = insertDoctor("Dr. Ricardo Lima");
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.script.length = 0;
});

const VARS = { "medico.nome": "Dr. Ricardo Lima", data: "12/03/2026", horario: "14:30", local: "Consultório 2" };

function jsonRequest(body: unknown, cookie: string) {
  return new Request(new URL("/api/comms/send", TEST_ORIGIN), {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie, Origin: TEST_ORIGIN },
    body: JSON.stringify(body),
  });
}

function webhookRequest(payload: unknown, signature?: string) {
  const raw = JSON.stringify(payload);
  return new Request(new URL("/api/comms/webhook", TEST_ORIGIN), {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signature ?? signBody(raw, SECRET) },
    body: raw,
  });
}

function statusPayload(externalId: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    object: "whatsapp_business_account",
    entry: [{ id: "1", changes: [{ field: "messages", value: { statuses: [{ id: externalId, status, timestamp: "1773000000", recipient_id: "5511987654321", ...extra }] } }] }],
  };
}

const messageRow = (id: number) => db.select().from(messages).where(eq(messages.id, id)).get()!;

// ------------------------------------------------------------------------------------------ templates

describe("template placeholders", () => {
  const body = "{{paciente.nome}}, {{data}} às {{horario}} com {{medico.nome}}; repito {{data}}.";

  it("lists placeholders once, in order of first appearance (Meta's {{1}}, {{2}} …)", () => {
    expect(placeholdersOf(body)).toEqual(["paciente.nome", "data", "horario", "medico.nome"]);
    expect(templateParameters(body, { "paciente.nome": "Maria", data: "12/03", horario: "07:00", "medico.nome": "Dr. X" })).toEqual([
      "Maria",
      "12/03",
      "07:00",
      "Dr. X",
    ]);
  });

  it("fills the patient's own variables and asks for every other one", () => {
    expect(initialsOf("Maria da Silva Souza")).toBe("MS");
    expect(initialsOf("ana")).toBe("A");
    expect(missingVariables(body, { data: "12/03" })).toEqual(["horario", "medico.nome"]);
    expect(renderTemplate("Oi {{paciente.nome}} ({{paciente.iniciais}})", { "paciente.nome": "Maria", "paciente.iniciais": "MS" })).toBe("Oi Maria (MS)");
    expect(previewOf("a".repeat(101))).toBe(`${"a".repeat(100)}…`);
    expect(previewOf("a".repeat(100))).toBe("a".repeat(100));
  });

  it("refuses a body with an unknown variable or an unpaired brace, and an approved template without its Meta name", () => {
    const base = { title: "T", category: "agendamento", status: "rascunho", metaName: "", metaLanguage: "pt_BR" };
    const unknown = templateSchema.safeParse({ ...base, body: "Oi {{paciente.nome}} {{cpf}}" });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0].message).toMatch(/Variável desconhecida: \{\{cpf\}\}/);
    expect(templateSchema.safeParse({ ...base, body: "Oi {{paciente.nome}" }).success).toBe(false);
    const approved = templateSchema.safeParse({ ...base, status: "aprovado", body: "Oi {{paciente.nome}}" });
    expect(approved.error?.issues.map((i) => i.message)).toEqual(["Informe o nome do template aprovado na Meta"]);
    expect(templateSchema.safeParse({ ...base, status: "aprovado", metaName: "Com Espaço", body: "Oi" }).success).toBe(false);
    expect(templateSchema.parse({ ...base, status: "aprovado", metaName: "oi_paciente", body: "Oi {{paciente.nome}}" }).metaLanguage).toBe("pt_BR");
  });

  it("reads variables from a form's nested fields and from the API's dotted keys alike", () => {
    expect(quickSendSchema.parse({ patientId: "1", templateId: "2", variables: { medico: { nome: "Dr. X" }, data: "1/2" } }).variables).toEqual({
      "medico.nome": "Dr. X",
      data: "1/2",
    });
    expect(quickSendSchema.parse({ patientId: 1, templateId: 2, variables: { "medico.nome": "Dr. Y" } }).variables).toEqual({ "medico.nome": "Dr. Y" });
    expect(quickSendSchema.safeParse({ templateId: 2 }).error?.issues[0].message).toBe("Selecione um paciente e um template");
  });
});

// ------------------------------------------------------------------------------------------ sending

describe("quick send through the Cloud API", () => {
  it("sends the template by name, language pt_BR and the body parameters in order, once", async () => {
    const { id } = sendQuickMessage(admin.id, { patientId, templateId: approvedId, variables: VARS });
    expect(messageRow(id)).toMatchObject({ status: "queued", toPhone: "5511987654321", body: "Olá, Maria da Silva Souza (MS)! Consulta com Dr. Ricardo Lima em 12/03/2026 às 14:30, Consultório 2." });
    expect(await deliverDue(new Date())).toBe(1);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.path).toBe("/v25.0/1234567890/messages");
    expect(request.authorization).toBe("Bearer token-de-teste");
    expect(request.body).toMatchObject({
      messaging_product: "whatsapp",
      to: "5511987654321",
      type: "template",
      template: {
        name: "lembrete_consulta",
        language: { code: "pt_BR" },
        components: [
          {
            type: "body",
            parameters: ["Maria da Silva Souza", "MS", "Dr. Ricardo Lima", "12/03/2026", "14:30", "Consultório 2"].map((text) => ({ type: "text", text })),
          },
        ],
      },
      biz_opaque_callback_data: `msg:${id}`,
    });
    expect(messageRow(id)).toMatchObject({ status: "sent", sendingAt: null });
    expect(messageRow(id).externalId).toMatch(/^wamid\.fake\d+$/);
    // Nothing more to send: a second pass sends nothing.
    expect(await deliverDue(new Date())).toBe(0);
    expect(fake.requests).toHaveLength(1);
  });

  it("retries a 500 from Meta with backoff and then sends it exactly once", async () => {
    fake.script.push({ status: 500 });
    const { id } = sendQuickMessage(staff.id, { patientId, templateId: approvedId, variables: VARS });
    const t0 = new Date();
    await deliverDue(t0);
    const after500 = messageRow(id);
    expect(after500).toMatchObject({ status: "queued", attempts: 1, sendingAt: null });
    expect(after500.error).toMatch(/Internal error/);
    expect(after500.nextAttemptAt!.getTime()).toBeGreaterThan(t0.getTime());
    // Not before the backoff has passed.
    expect(await deliverDue(new Date(t0.getTime() + 1000))).toBe(0);
    await deliverDue(new Date(after500.nextAttemptAt!.getTime() + 1));
    expect(fake.requests).toHaveLength(2);
    expect(messageRow(id)).toMatchObject({ status: "sent", attempts: 2, error: null });
    await deliverDue(new Date(t0.getTime() + 10 * HOUR));
    expect(fake.requests).toHaveLength(2);
  });

  it("never sends twice when the process dies between Meta's answer and the status write", async () => {
    const { id } = sendQuickMessage(staff.id, { patientId, templateId: approvedId, variables: VARS });
    const crash = new Error("process killed");
    await expect(
      deliverDue(new Date(), whatsappConfig(), {
        afterProviderAnswer: () => {
          throw crash;
        },
      }),
    ).rejects.toBe(crash);
    expect(fake.requests).toHaveLength(1);
    expect(messageRow(id)).toMatchObject({ status: "queued", externalId: null });
    // 'Restart': the new process sweeps the claims it finds and delivers what is due.
    sweepInterrupted(new Date());
    await deliverDue(new Date(Date.now() + HOUR));
    expect(fake.requests).toHaveLength(1);
    expect(messageRow(id).error).toMatch(/não será reenviada automaticamente/);
    // Meta's status webhook names our message (biz_opaque_callback_data) and settles it.
    const response = await webhookAction(routeArgs(webhookRequest(statusPayload("wamid.lost", "delivered", { biz_opaque_callback_data: `msg:${id}` }))));
    expect(statusOf(response)).toBe(200);
    expect(messageRow(id)).toMatchObject({ status: "delivered", externalId: "wamid.lost", sendingAt: null });
    // One never confirmed is failed after a day, for a person to check.
    const other = sendQuickMessage(staff.id, { patientId, templateId: approvedId, variables: VARS }).id;
    await deliverDue(new Date(), whatsappConfig(), { afterProviderAnswer: () => { throw crash; } }).catch(() => undefined);
    sweepInterrupted(new Date(Date.now() + 25 * HOUR));
    expect(messageRow(other)).toMatchObject({ status: "failed", sendingAt: null });
  });

  it("a message Meta rejects (4xx) fails at once with Meta's reason, without retries", async () => {
    fake.script.push({ status: 400, body: { error: { message: "Template name does not exist in the translation", code: 132001 } } });
    const { id } = sendQuickMessage(staff.id, { patientId, templateId: approvedId, variables: VARS });
    await deliverDue(new Date());
    expect(messageRow(id)).toMatchObject({ status: "failed", error: "Template name does not exist in the translation (código 132001)" });
    await deliverDue(new Date(Date.now() + HOUR));
    expect(fake.requests).toHaveLength(1);
  });
});

describe("the API refuses what must not be sent", () => {
  it("refuses a template not approved, missing variables, no opt-in, no mobile, unknown patient — and writes nothing", async () => {
    const before = db.select().from(messages).all().length;
    const cases: [unknown, number, RegExp][] = [
      [{ patientId, templateId: draftId, variables: {} }, 400, /Só templates aprovados/],
      [{ patientId, templateId: approvedId, variables: { data: "12/03" } }, 400, /Preencha as variáveis: medico\.nome, horario, local/],
      [{ patientId: noOptInId, templateId: approvedId, variables: VARS }, 400, /não autorizou mensagens por WhatsApp/],
      [{ patientId: landlineId, templateId: approvedId, variables: VARS }, 400, /celular/],
      [{ patientId: 999_999, templateId: approvedId, variables: VARS }, 404, /Paciente não encontrado/],
      [{ patientId, templateId: 999_999, variables: VARS }, 404, /Template não encontrado/],
      [{ templateId: approvedId }, 400, /Selecione um paciente e um template/],
    ];
    for (const [body, status, message] of cases) {
      const response = await sendAction(routeArgs(jsonRequest(body, staff.cookie)));
      expect(statusOf(response), JSON.stringify(body)).toBe(status);
      const payload = response instanceof Response ? await response.json() : (response as { data: { error: string } }).data;
      expect(payload.error).toMatch(message);
    }
    expect(db.select().from(messages).all().length).toBe(before);
  });

  it("a doctor may not send (403); staff may (201, queued)", async () => {
    const refused = await sendAction(routeArgs(jsonRequest({ patientId, templateId: approvedId, variables: VARS }, doctor.cookie))).catch((e: unknown) => e);
    expect(statusOf(refused)).toBe(403);
    const accepted = await sendAction(routeArgs(jsonRequest({ patientId, templateId: approvedId, variables: VARS }, staff.cookie)));
    expect(statusOf(accepted)).toBe(201);
    expect(((await (accepted as Response).json()) as { message: { status: string } }).message.status).toBe("queued");
  });

  it("the page's quick send refuses a missing variable with the server's text (400) and staff may not create templates", async () => {
    const refused = await pageAction(
      routeArgs(formRequest("/communication?tab=whatsapp", { intent: "send", patientId, templateId: approvedId, "variables.data": "12/03" }, { cookie: staff.cookie })),
    );
    expect(statusOf(refused)).toBe(400);
    expect((refused as { data: { toast: { message: string } } }).data.toast.message).toMatch(/Preencha as variáveis/);
    const forbidden = await pageAction(
      routeArgs(formRequest("/communication", { intent: "create-template", title: "X", category: "agendamento", status: "rascunho", body: "Oi" }, { cookie: staff.cookie })),
    ).catch((e: unknown) => e);
    expect(statusOf(forbidden)).toBe(403);
  });
});

// ------------------------------------------------------------------------------------------ webhooks

describe("webhook", () => {
  it("answers Meta's handshake only with the verify token", async () => {
    const ok = await webhookLoader(routeArgs(getRequest("/api/comms/webhook?hub.mode=subscribe&hub.verify_token=verifica-123&hub.challenge=4242")));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("4242");
    const bad = await webhookLoader(routeArgs(getRequest("/api/comms/webhook?hub.mode=subscribe&hub.verify_token=errado&hub.challenge=4242")));
    expect(bad.status).toBe(403);
  });

  it("verifies X-Hub-Signature-256 over the raw body in constant time", () => {
    const body = Buffer.from('{"a":1}');
    expect(verifySignature(body, signBody(body, SECRET), SECRET)).toBe(true);
    expect(verifySignature(Buffer.from('{"a":2}'), signBody(body, SECRET), SECRET)).toBe(false);
    expect(verifySignature(body, signBody(body, "outro"), SECRET)).toBe(false);
    expect(verifySignature(body, "sha256=xyz", SECRET)).toBe(false);
    expect(verifySignature(body, null, SECRET)).toBe(false);
  });

  it("refuses an event with a bad signature and changes nothing; good ones move the status forward only", async () => {
    const id = db
      .insert(messages)
      .values({ patientId, patientName: "Maria", body: "x", status: "sent", externalId: "wamid.ordem", direction: "outbound" })
      .returning()
      .get().id;
    const forged = await webhookAction(routeArgs(webhookRequest(statusPayload("wamid.ordem", "read"), "sha256=" + "0".repeat(64))));
    expect(statusOf(forged)).toBe(401);
    expect(messageRow(id).status).toBe("sent");

    await webhookAction(routeArgs(webhookRequest(statusPayload("wamid.ordem", "read"))));
    expect(messageRow(id).status).toBe("read");
    // Out of order: a 'delivered' after 'read' is ignored; a repeated event changes nothing.
    await webhookAction(routeArgs(webhookRequest(statusPayload("wamid.ordem", "delivered"))));
    await webhookAction(routeArgs(webhookRequest(statusPayload("wamid.ordem", "read"))));
    await webhookAction(routeArgs(webhookRequest(statusPayload("wamid.ordem", "failed", { errors: [{ code: 131026, title: "Message undeliverable" }] }))));
    expect(messageRow(id).status).toBe("read");
    expect(applyStatusEvent({ externalId: "wamid.ordem", status: "delivered", reference: null, at: new Date(), error: null })).toBe(false);
  });

  it("a 'failed' status before delivery records Meta's reason", async () => {
    const id = db.insert(messages).values({ patientName: "Maria", body: "x", status: "sent", externalId: "wamid.falha" }).returning().get().id;
    await webhookAction(routeArgs(webhookRequest(statusPayload("wamid.falha", "failed", { errors: [{ code: 131026, title: "Message undeliverable", error_data: { details: "Número sem WhatsApp" } }] }))));
    expect(messageRow(id)).toMatchObject({ status: "failed", error: "Número sem WhatsApp" });
  });

  it("stores a patient's reply once, which opens the 24-hour window for free text", async () => {
    const payload = {
      entry: [
        {
          changes: [
            {
              value: {
                contacts: [{ wa_id: "5511987654321", profile: { name: "Maria" } }],
                messages: [{ id: "wamid.in1", from: "5511987654321", timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: "Confirmado!" } }],
              },
            },
          ],
        },
      ],
    };
    expect(parseWebhook(payload).inbound).toHaveLength(1);
    await webhookAction(routeArgs(webhookRequest(payload)));
    await webhookAction(routeArgs(webhookRequest(payload)));
    const stored = db.select().from(messages).where(eq(messages.externalId, "wamid.in1")).all();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ patientId, direction: "inbound", body: "Confirmado!" });
    expect(customerWindow(patientId).open).toBe(true);
  });
});

describe("the 24-hour customer-service window", () => {
  it("allows free text within 24 hours of the patient's last message, and refuses it after", () => {
    const quiet = insertPatient("Paciente Calado", { phone: "11911112222", whatsappOptIn: true });
    const now = new Date();
    expect(() => sendReply(staff.id, { patientId: quiet, text: "Oi" }, now)).toThrow(/janela de 24 horas está fechada/);
    recordInbound({ externalId: "wamid.in-quiet", from: "5511911112222", name: null, text: "Olá", at: new Date(now.getTime() - 23 * HOUR) });
    expect(customerWindow(quiet, now)).toMatchObject({ open: true });
    const { id } = sendReply(staff.id, { patientId: quiet, text: "Como podemos ajudar?" }, now);
    expect(messageRow(id)).toMatchObject({ kind: "text", status: "queued" });
    const later = new Date(now.getTime() + 2 * HOUR);
    expect(customerWindow(quiet, later).open).toBe(false);
    expect(() => sendReply(staff.id, { patientId: quiet, text: "Oi" }, later)).toThrow(/janela de 24 horas/);
  });

  it("a 'SAIR' reply withdraws the patient's consent, logged with its source", () => {
    const leaving = insertPatient("Paciente Sai", { phone: "11933334444", whatsappOptIn: true });
    recordInbound({ externalId: "wamid.sair", from: "551133334444", name: null, text: "SAIR", at: new Date() });
    expect(db.select({ optIn: patients.whatsappOptIn }).from(patients).where(eq(patients.id, leaving)).get()!.optIn).toBe(false);
    const log = db.select().from(whatsappConsents).where(eq(whatsappConsents.patientId, leaving)).all();
    expect(log.map((c) => [c.optedIn, c.source])).toEqual([
      [true, "cadastro"],
      [false, "paciente_whatsapp"],
    ]);
  });
});

// ------------------------------------------------------------------------------------------ automation

describe("automation rules", () => {
  it("queue exactly one reminder per appointment and follow a rescheduled one", async () => {
    const ruleId = db
      .insert(automationRules)
      .values({ name: "Lembrete 24h", templateId: approvedId, trigger: "appointment_start", offsetMinutes: -1440, enabled: true })
      .returning()
      .get().id;
    const now = new Date("2026-03-10T12:00:00Z");
    const start = new Date(now.getTime() + 24 * HOUR - 10 * 60_000);
    const appointmentId = db
      .insert(appointments)
      .values({ patientId, doctorId, startTime: start, endTime: new Date(start.getTime() + HOUR), type: "Retorno", location: "Sala 3" })
      .returning()
      .get().id;
    const ruleMessages = () => db.select().from(messages).where(eq(messages.ruleId, ruleId)).all();

    runAutomation(now);
    runAutomation(new Date(now.getTime() + 60_000));
    expect(ruleMessages()).toHaveLength(1);
    expect(ruleMessages()[0]).toMatchObject({ status: "queued", eventKey: `appointment:${appointmentId}:${start.getTime()}` });
    expect(ruleMessages()[0].body).toContain("Sala 3");

    // Moved to two days later: the queued reminder for the old time is cancelled …
    const moved = new Date(start.getTime() + 48 * HOUR);
    db.update(appointments).set({ startTime: moved, endTime: new Date(moved.getTime() + HOUR) }).where(eq(appointments.id, appointmentId)).run();
    runAutomation(new Date(now.getTime() + 2 * 60_000));
    expect(ruleMessages().map((m) => [m.status, m.error])).toEqual([["failed", "Cancelada: a consulta foi reagendada."]]);
    // … and one reminder goes out 24 hours before the new time, once.
    const newDue = new Date(moved.getTime() - 24 * HOUR + 60_000);
    runAutomation(newDue);
    runAutomation(new Date(newDue.getTime() + 60_000));
    const after = ruleMessages();
    expect(after).toHaveLength(2);
    expect(after.filter((m) => m.status === "queued").map((m) => m.eventKey)).toEqual([`appointment:${appointmentId}:${moved.getTime()}`]);
    db.update(automationRules).set({ enabled: false }).where(eq(automationRules.id, ruleId)).run();
  });

  it("skip patients without consent and sends birthday greetings once a year", () => {
    const birthdayTemplate = db
      .insert(messageTemplates)
      .values({ title: "Parabéns", category: "encerramento", status: "aprovado", body: "Feliz aniversário, {{paciente.nome}}!", metaName: "parabens" })
      .returning()
      .get().id;
    const ruleId = db
      .insert(automationRules)
      .values({ name: "Aniversário", templateId: birthdayTemplate, trigger: "patient_birthday", offsetMinutes: 9 * 60, enabled: true })
      .returning()
      .get().id;
    insertPatient("Sem Opt-in Aniversariante", { phone: "11955556666", whatsappOptIn: false, dateOfBirth: "1990-05-17" });
    // 17 May 2026, 10:00 in São Paulo (13:00 UTC): Maria (born 17/05) is greeted, once.
    const at = new Date("2026-05-17T13:00:00Z");
    runAutomation(at);
    runAutomation(new Date(at.getTime() + HOUR));
    const sent = db.select().from(messages).where(eq(messages.ruleId, ruleId)).all();
    expect(sent.map((m) => [m.patientId, m.body])).toEqual([[patientId, "Feliz aniversário, Maria da Silva Souza!"]]);
    db.update(automationRules).set({ enabled: false }).where(eq(automationRules.id, ruleId)).run();
  });

  it("admins create the four kinds of rule; a template the rule cannot fill is refused", async () => {
    const created = await pageAction(
      routeArgs(
        formRequest("/communication?tab=automacao", { intent: "create-rule", name: "Pré-op", kind: "surgery_preop", amount: "2", templateId: approvedId, enabled: "on" }, { cookie: admin.cookie }),
      ),
    );
    expect(statusOf(created)).toBe(302);
    expect(listRules().find((r) => r.name === "Pré-op")).toMatchObject({ trigger: "surgery_date", offsetMinutes: -2880, form: { kind: "surgery_preop", amount: 2 } });
    const refused = await pageAction(
      routeArgs(formRequest("/communication?tab=automacao", { intent: "create-rule", name: "Aniv", kind: "birthday", amount: "9", templateId: approvedId }, { cookie: admin.cookie })),
    );
    expect(statusOf(refused)).toBe(400);
    expect(db.select().from(automationRules).where(and(eq(automationRules.name, "Aniv"))).all()).toHaveLength(0);
  });
});

// ------------------------------------------------------------------------------------------ KPIs and lists

describe("KPIs and the message log", () => {
  it("counts consenting patients, messages sent in 30 days and enabled rules in SQL", () => {
    const kpis = commsKpis(new Date());
    const optIn = db.select().from(patients).where(eq(patients.whatsappOptIn, true)).all().length;
    const sent = db
      .select()
      .from(messages)
      .all()
      .filter((m) => m.direction === "outbound" && ["sent", "delivered", "read"].includes(m.status) && m.createdAt.getTime() > Date.now() - 30 * 24 * HOUR).length;
    const rules = db.select().from(automationRules).where(eq(automationRules.enabled, true)).all().length;
    expect(kpis).toEqual({ optInPatients: optIn, sent30d: sent, driveFolders: 0, activeRules: rules });
    expect(sent).toBeGreaterThan(0);
  });

  it("filters the log by status, patient and template, and pages by keyset through an index", () => {
    const all = listMessages({ q: "", page: 1, sort: "createdAt", dir: "desc", filters: { status: null, patientId: null, templateId: null } });
    expect(all.total).toBeGreaterThan(3);
    const read = listMessages({ q: "", page: 1, sort: "createdAt", dir: "desc", filters: { status: "read", patientId: null, templateId: null } });
    expect(read.rows.every((m) => m.status === "read")).toBe(true);
    const mine = listMessages({ q: "", page: 1, sort: "createdAt", dir: "desc", filters: { status: null, patientId, templateId: approvedId } });
    expect(mine.rows.length).toBeGreaterThan(0);
    expect(mine.rows.every((m) => m.patientId === patientId && m.templateTitle === "Lembrete")).toBe(true);

    const plans: string[] = [];
    for (const where of ["", "where status = 'read'", "where patient_id = 1", "where template_id = 1", "where status = 'read' and template_id = 1"]) {
      for (const cursor of ["", `${where ? " and" : " where"} (created_at, id) < (1, 1)`]) {
        const statement = `select id from messages ${where}${cursor} order by created_at desc, id desc limit 26`;
        plans.push((sqlite.prepare(`explain query plan ${statement}`).all() as { detail: string }[]).map((r) => r.detail).join("\n"));
      }
    }
    for (const plan of plans) {
      expect(plan, plan).not.toMatch(/^SCAN messages$/m);
      expect(plan, plan).not.toMatch(/TEMP B-TREE/);
    }
    const queue = (sqlite.prepare("explain query plan select id from messages where status = 'queued' and direction = 'outbound' and sending_at is null and next_attempt_at <= 1 order by next_attempt_at limit 20").all() as { detail: string }[])
      .map((r) => r.detail)
      .join("\n");
    expect(queue).toMatch(/messages_queue_idx/);
  });

  it("the worker's and the webhook's lookups go through indexes, never a scan of patients, appointments or messages", () => {
    for (const [trigger, offsetMinutes] of [["appointment_start", -60], ["appointment_completed", 1440], ["surgery_date", -2880], ["patient_birthday", 540]] as const) {
      db.insert(automationRules).values({ name: `Plano ${trigger}`, templateId: approvedId, trigger, offsetMinutes, enabled: true }).run();
    }
    const seen = capturePrepared(() => {
      runAutomation(new Date("2026-05-17T13:00:00Z"));
      recordInbound({ externalId: "wamid.plan", from: "5511987654321", name: null, text: "oi", at: new Date() });
    });
    const selects = seen.filter((s) => /^select/i.test(s) && /"(patients|appointments|surgeries|messages)"/.test(s));
    // Every rule kind (appointment reminder, follow-up, pre-op, birthday) and the inbound number lookup.
    expect(selects.some((s) => s.includes("substr"))).toBe(true);
    expect(selects.some((s) => /"end_time"/.test(s))).toBe(true);
    expect(selects.some((s) => /"surgeries"/.test(s))).toBe(true);
    for (const statement of selects) {
      const params = (statement.match(/\?/g) ?? []).map(() => 1);
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, `${statement}\n${plan}`).not.toMatch(/^SCAN (patients|appointments|surgeries|messages)( |$)/m);
    }
  });
});

describe("the message log at a practice's size", () => {
  const logPage = (page: number, status: "read" | null = null) =>
    listMessages({ q: "", page, sort: "createdAt", dir: "desc", filters: { status, patientId: null, templateId: null } });
  const byOffset = (page: number, status: string | null = null) =>
    sqlite
      .prepare(`select id from messages ${status ? "where status = ?" : ""} order by created_at desc, id desc limit ? offset ?`)
      .pluck()
      .all(...(status ? [status] : []), PAGE_SIZE, (page - 1) * PAGE_SIZE) as number[];

  it("counts the whole log from its counter and reads every typed page as OFFSET would, from the nearer end", () => {
    // Three and a half pages of old reminders (2001: outside every 30-day figure), some sharing a minute.
    db.insert(messages)
      .values(
        Array.from({ length: 90 }, (_, i) => ({
          patientId,
          patientName: "Maria da Silva Souza",
          body: `Lembrete ${i}`,
          status: i % 3 ? ("read" as const) : ("delivered" as const),
          createdAt: new Date(Date.UTC(2001, 0, 1 + Math.floor(i / 2))),
        })),
      )
      .run();
    sqlite.prepare("update row_counts set n = n where table_name = 'doctors'").run(); // a write elsewhere: no kept page is reused
    const total = sqlite.prepare("select count(*) from messages").pluck().get() as number;
    const pages = Math.ceil(total / PAGE_SIZE);
    let first!: ReturnType<typeof logPage>;
    const statements = capturePrepared(() => {
      first = logPage(1);
    });
    expect([first.total, first.totalCapped]).toEqual([total, false]);
    // The total is the counter (migration 0048), not a count of the messages.
    expect(statements.filter((s) => /count\(/i.test(s) && /"messages"/.test(s))).toEqual([]);
    for (let page = 1; page <= pages; page += 1) expect(logPage(page).rows.map((row) => row.id), `page ${page}`).toEqual(byOffset(page));
    // A typed page: its first row is found in the date index alone (from the end, in the second
    // half), and the page read from there; the rows passed over are not read.
    sqlite.prepare("update messages set error = error where id = (select min(id) from messages)").run();
    const typed = capturePrepared(() => logPage(pages - 1));
    expect(typed.filter((s) => /offset/i.test(s)).map((s) => /"patient_name"/.test(s))).toEqual([false]);
    const filtered = Math.ceil((sqlite.prepare("select count(*) from messages where status = 'read'").pluck().get() as number) / PAGE_SIZE);
    for (let page = 1; page <= filtered; page += 1) expect(logPage(page, "read").rows.map((row) => row.id)).toEqual(byOffset(page, "read"));
  });

  it("keeps a page and the recent messages until a message is written: a status the provider moved shows at once, a task written meanwhile leaves them", () => {
    const first = logPage(1);
    const recent = recentMessages(10);
    expect([logPage(1), recentMessages(10)]).toEqual([first, recent]);
    expect(logPage(1)).toBe(first);
    db.insert(tasks).values({ title: "Conferir lembretes" }).run();
    expect(logPage(1)).toBe(first);
    expect(recentMessages(10)).toBe(recent);
    const shown = recent.find((row) => row.status !== "failed")!;
    db.update(messages).set({ status: "failed", error: "Número sem WhatsApp" }).where(eq(messages.id, shown.id)).run();
    const after = logPage(1);
    expect(after).not.toBe(first);
    expect(after.rows.find((row) => row.id === shown.id)).toMatchObject({ status: "failed", error: "Número sem WhatsApp" });
    expect(recentMessages(10).find((row) => row.id === shown.id)).toMatchObject({ status: "failed", error: "Número sem WhatsApp" });
  });
});
