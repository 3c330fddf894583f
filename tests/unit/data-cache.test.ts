/** Figures kept until the data changes (app/.server/data-cache.ts): what moves the data's version, or a few tables' own. */
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { recordAuthEvent, recordView } from "~/.server/audit";
import { cachedUntilWrite, withoutNewVersion } from "~/.server/data-cache";
import { databasePath, db, sqlite } from "~/.server/db";
import { appointments, messageTemplates, surgeries, surgeryFeeLines } from "~db/schema";
import { computeFeesByDoctor, computePayerSummary, feesByDoctor, payerSummary } from "~/models/honorarios.server";
import { getSessionUser } from "~/.server/session";
import { ensureClinicSettings } from "~/.server/secrets";
import { kpiFilterOptions } from "~/.server/kpi";
import { parseListState } from "~/lib/list-params";
import { APPOINTMENT_LIST, SURGERY_LIST } from "~/lib/lists";
import { listAppointments } from "~/models/appointment.server";
import { createPatient, listPatients, searchPatientOptions } from "~/models/patient.server";
import { searchDoctorOptions } from "~/models/doctor-options.server";
import { optionsOf } from "~/models/filter-options.server";
import { doctorPickerOptions, patientPickerOptions } from "~/models/picker-options.server";
import { recentMessages } from "~/models/message.server";
import { approvedTemplateChoices, templatesByCategory } from "~/models/template.server";
import { registryOption } from "~/lib/form-options";
import { listHospitalOptions, listPayerOptions, listSurgeries } from "~/models/surgery.server";
import { type SignedIn, capturePrepared, getRequest, insertDoctor, insertHospital, insertPatient, insertPayer, loginAs } from "../support/fixtures";

let staff: SignedIn;
beforeAll(async () => {
  await loginAs("admin");
  staff = await loginAs("staff");
});

describe("a kept figure", () => {
  it("is computed again after any write of data, but not after entries of the audit trail or session touches alone", async () => {
    let computed = 0;
    const patientCount = () =>
      cachedUntilWrite("test:patient-count", () => {
        computed++;
        return sqlite.prepare("select count(*) from patients").pluck().get() as number;
      });
    const before = patientCount();
    expect(patientCount()).toBe(before);
    expect(computed).toBe(1);

    // A patient's page records a view, a sign-in records an event: the figure stays.
    recordView(getRequest("/patients"), { id: staff.id }, "patient", null, { ids: [] });
    recordAuthEvent(getRequest("/auth"), { action: "login_failed", email: "x@y.z", reason: "senha incorreta" });
    expect(patientCount()).toBe(before);
    expect(computed).toBe(1);

    // A signed-in request touches its session (at most once a minute): the figure stays.
    const lastSeen = () => sqlite.prepare("select max(last_seen_at) from sessions where user_id = ?").pluck().get(staff.id);
    const seenBefore = lastSeen();
    const user = await getSessionUser(getRequest("/dashboard", { cookie: staff.cookie }), new Date(Date.now() + 5 * 60_000));
    expect(user?.id).toBe(staff.id);
    expect(lastSeen()).not.toBe(seenBefore);
    expect(patientCount()).toBe(before);
    expect(computed).toBe(1);

    // A write of data (with its own audit entry, in the same transaction) gives a new figure.
    const id = createPatient(staff.id, { name: "Paciente do Cache", cpf: null, dateOfBirth: null, phone: null, email: null, address: null, insurance: null, insuranceCardNumber: null, medicalHistory: null, whatsappOptIn: false })!;
    expect(patientCount()).toBe(before + 1);
    expect(computed).toBe(2);

    // So does another connection's commit.
    const other = new Database(databasePath);
    try {
      expect(other.prepare("delete from patients where id = ?").run(id).changes).toBe(1);
    } finally {
      other.close();
    }
    expect(patientCount()).toBe(before);
    expect(computed).toBe(3);
  });
});

describe("a session's row", () => {
  const lookUp = (cookie: string, at = new Date()) => getSessionUser(getRequest("/dashboard", { cookie }), at);

  it("is kept between writes, and a write of any kind (here or in another connection) is seen at once", async () => {
    const doctor = await loginAs("doctor", { name: "Dra. Guardada" });
    expect(await lookUp(doctor.cookie)).toMatchObject({ id: doctor.id, name: "Dra. Guardada", role: "doctor" });

    // Kept: a change written without a new version (as a touch is) is not read again.
    withoutNewVersion(() => sqlite.prepare("update profiles set name = 'Sem Versão' where id = ?").run(doctor.id));
    expect((await lookUp(doctor.cookie))?.name).toBe("Dra. Guardada");

    // Any counted write is seen at once: a role taken away.
    sqlite.prepare("update user_roles set role = 'staff' where user_id = ?").run(doctor.id);
    expect(await lookUp(doctor.cookie)).toMatchObject({ id: doctor.id, name: "Sem Versão", role: "staff" });

    // A sign-out committed by another connection (another process) ends the kept session too.
    const other = new Database(databasePath);
    try {
      expect(other.prepare("delete from sessions where user_id = ?").run(doctor.id).changes).toBeGreaterThan(0);
    } finally {
      other.close();
    }
    expect(await lookUp(doctor.cookie)).toBeNull();
  });

  it("takes a change of the idle timeout at once, though the row holding it is kept", async () => {
    const staffer = await loginAs("staff");
    const { sessionIdleMinutes } = ensureClinicSettings();
    expect(await lookUp(staffer.cookie)).not.toBeNull();
    const setIdle = sqlite.prepare("update clinic_settings set session_idle_minutes = ? where id = 1");
    setIdle.run(5);
    try {
      expect(await lookUp(staffer.cookie, new Date(Date.now() + 6 * 60_000))).toBeNull();
    } finally {
      setIdle.run(sessionIdleMinutes);
    }
  });

  it("keeps a touched session's last use, so the idle timeout counts from the last page", async () => {
    const staffer = await loginAs("staff");
    const { sessionIdleMinutes } = ensureClinicSettings();
    const idle = sessionIdleMinutes * 60_000;
    const start = Date.now();
    const at = (ms: number) => new Date(start + ms);
    // Each view comes just before the idle timeout of the one before, with no other write between.
    for (let view = 1; view <= 4; view++) expect(await lookUp(staffer.cookie, at(view * (idle - 60_000)))).not.toBeNull();
    expect(await lookUp(staffer.cookie, at(4 * (idle - 60_000) + idle + 1000))).toBeNull();
  });
});

describe("the clinic's settings", () => {
  it("are read once between writes, and a change (here or in another connection) is seen at once", () => {
    const first = ensureClinicSettings();
    expect(ensureClinicSettings()).toBe(first);
    const rename = sqlite.prepare("update clinic_settings set clinic_name = ? where id = 1");
    try {
      rename.run("Clínica Renomeada");
      expect(ensureClinicSettings().clinicName).toBe("Clínica Renomeada");
      const other = new Database(databasePath);
      try {
        other.prepare("update clinic_settings set login_max_failures = login_max_failures + 1 where id = 1").run();
      } finally {
        other.close();
      }
      expect(ensureClinicSettings().loginMaxFailures).toBe(first.loginMaxFailures + 1);
    } finally {
      sqlite.prepare("update clinic_settings set clinic_name = ?, login_max_failures = ? where id = 1").run(first.clinicName, first.loginMaxFailures);
    }
    expect(ensureClinicSettings()).toMatchObject({ clinicName: first.clinicName, loginMaxFailures: first.loginMaxFailures });
  });
});

describe("a value computed inside a transaction", () => {
  it("is not kept: once the transaction rolls back, the next view computes it again", () => {
    const patientCount = () => cachedUntilWrite("test:rolled-back", () => sqlite.prepare("select count(*) from patients").pluck().get() as number);
    const before = patientCount();
    expect(() =>
      sqlite.transaction(() => {
        insertPatient("Paciente Desfeito");
        expect(patientCount()).toBe(before + 1);
        throw new Error("desfeito");
      })(),
    ).toThrow("desfeito");
    expect(patientCount()).toBe(before);
  });
});

describe("kept filter options", () => {
  it("the lists' payer, hospital and doctor options follow every write to them", () => {
    const names = (rows: readonly { name?: string; label?: string }[]) => rows.map((row) => row.name ?? row.label);
    expect(names(listPayerOptions())).not.toContain("Pagador Recém-Criado");
    expect(names(listHospitalOptions())).not.toContain("Hospital Recém-Criado");
    expect(names(kpiFilterOptions({ payers: true }).payers)).not.toContain("Pagador Recém-Criado");
    expect(names(kpiFilterOptions({ doctors: true }).doctors)).not.toContain("Dra. Recém-Criada");
    const payerId = insertPayer("Pagador Recém-Criado");
    insertPayer("Unimed Recém-Criada"); // after it by name, before it once it is inactive
    insertHospital("Hospital Recém-Criado");
    insertDoctor("Dra. Recém-Criada", { crm: "998877" });
    expect(names(listPayerOptions())).toContain("Pagador Recém-Criado");
    expect(names(listHospitalOptions())).toContain("Hospital Recém-Criado");
    expect(names(kpiFilterOptions({ payers: true }).payers)).toContain("Pagador Recém-Criado");
    expect(names(kpiFilterOptions({ doctors: true }).doctors)).toContain("Dra. Recém-Criada");
    // Made inactive: out of the active ones, still offered where it is the one chosen.
    sqlite.prepare("update payers set active = 0 where id = ?").run(payerId);
    expect(names(listPayerOptions())).not.toContain("Pagador Recém-Criado");
    expect(names(listPayerOptions(payerId))).toContain("Pagador Recém-Criado");
    // A period's report may be about it: the KPI screens still offer it, marked, after the active ones.
    const kpiPayers = names(kpiFilterOptions({ payers: true }).payers);
    expect(kpiPayers.at(-1)).toBe("Pagador Recém-Criado (inativo)");
    expect(kpiPayers).toContain("Unimed Recém-Criada");
  });

  it("are the same array from one page to the next until a write, sent as JSON made once", () => {
    const doctors = () => kpiFilterOptions({ doctors: true }).doctors;
    const first = doctors();
    expect(doctors()).toBe(first);
    // Marked for the encoder (app/.server/sent-as-json.ts): its JSON, made once, is what the browser gets.
    expect((first as unknown as Record<symbol, unknown>)[Symbol.for("sinapse.sentAsJson")]).toBe(JSON.stringify(first));
    insertDoctor("Dr. Outro Recém-Criado", { crm: "998866" });
    const after = doctors();
    expect(after).not.toBe(first);
    expect(after.map((o) => o.label)).toContain("Dr. Outro Recém-Criado");
    // Options made from rows made afresh (a chosen inactive record added) are made afresh too.
    const payer = insertPayer("Pagador Inativo Escolhido");
    sqlite.prepare("update payers set active = 0 where id = ?").run(payer);
    const withChosen = optionsOf(listPayerOptions(payer), registryOption);
    expect(withChosen.map((o) => o.label)).toContain("Pagador Inativo Escolhido (inativo)");
    expect(optionsOf(listPayerOptions(), registryOption).map((o) => o.label)).not.toContain("Pagador Inativo Escolhido (inativo)");
  });
});

describe("a picker's options and the communication centre's lists", () => {
  const sentJson = (value: object) => (value as Record<symbol, unknown>)[Symbol.for("sinapse.sentAsJson")];

  it("are the same arrays from one view to the next until a write to what they read, sent as JSON made once", () => {
    insertPatient("Heloísa Seletorina Prado", { cpf: "52998224725" });
    const otherId = insertPatient("Otávio Fora da Busca");
    insertDoctor("Dr. Seletorino Campos", { crm: "771122" });
    const patientsFound = () => patientPickerOptions("seletorina", null);
    const first = patientsFound();
    expect(first.map((o) => o.label)).toEqual(["Heloísa Seletorina Prado · CPF 529.982.247-25"]);
    expect(patientsFound()).toBe(first);
    expect(sentJson(first)).toBe(JSON.stringify(first));
    const doctorsFound = doctorPickerOptions("seletorino", null);
    expect(doctorPickerOptions("seletorino", null)).toBe(doctorsFound);
    // The chosen patient, not among the matches, comes first in options made afresh.
    const withChosen = patientPickerOptions("seletorina", otherId);
    expect(withChosen.map((o) => o.id)).toEqual([otherId, first[0].id]);
    expect(patientsFound()).toBe(first);

    const approved = approvedTemplateChoices();
    const categories = templatesByCategory();
    const recent = recentMessages(10);
    expect(approvedTemplateChoices()).toBe(approved);
    expect(templatesByCategory()).toBe(categories);
    expect(recentMessages(10)).toBe(recent);
    for (const value of [approved, categories]) expect(sentJson(value)).toBe(JSON.stringify(value));
    expect(typeof sentJson(recent)).toBe("string");

    // A patient written: the patients' matches are read again, the doctors' are kept.
    insertPatient("Ítalo Seletorina Reis");
    const after = patientsFound();
    expect(after).not.toBe(first);
    expect(after.map((o) => o.label)).toContain("Ítalo Seletorina Reis");
    expect(doctorPickerOptions("seletorino", null)).toBe(doctorsFound);
    // A template approved: the send forms offer it.
    db.insert(messageTemplates).values({ title: "Aprovado Agora", category: "agendamento", status: "aprovado", body: "Oi {{paciente.nome}}" }).run();
    const approvedAfter = approvedTemplateChoices();
    expect(approvedAfter).not.toBe(approved);
    expect(approvedAfter.map((t) => t.title)).toContain("Aprovado Agora");
    expect(templatesByCategory()).not.toBe(categories);
  });
});

describe("a list's page kept until what it reads is written", () => {
  const patientsPage = (q: string) => listPatients({ q, page: 1, sort: "name", dir: "asc" });
  const surgeriesPage = (query: string) => {
    const { filters, ...state } = parseListState(new URL(`http://localhost/surgeries?${query}`), SURGERY_LIST);
    return listSurgeries(state, filters);
  };
  /** The page, and whether it was read from the database to give it. */
  const viewed = <T,>(page: () => T) => {
    let value!: T;
    const read = capturePrepared(() => (value = page())).length > 0;
    return { value, read };
  };

  it("hands out the same page until a write to its tables, then reads it again with the change", () => {
    const doctorId = insertDoctor("Dra. Lista Guardada", { crm: "661199" });
    const patientId = insertPatient("Quitéria Listada");
    const surgeryId = db
      .insert(surgeries)
      .values({ patientId, doctorId, surgeryType: "Microdiscectomia", hospital: "Hospital Antigo", scheduledDate: new Date("2026-05-04T12:00:00Z") })
      .returning({ id: surgeries.id })
      .get().id;
    const hospitalShown = () => surgeriesPage("q=quiteria").rows.find((row) => row.id === surgeryId)?.hospital;

    const first = viewed(() => surgeriesPage("q=quiteria"));
    expect(first.read).toBe(true);
    expect(first.value.rows.map((row) => row.id)).toEqual([surgeryId]);
    const again = viewed(() => surgeriesPage("q=quiteria"));
    expect(again).toEqual({ value: first.value, read: false });
    expect(again.value).toBe(first.value);
    // Another page of the same list (a filter) is its own.
    expect(surgeriesPage("q=quiteria&stage=concluido").rows).toEqual([]);

    // A write on this connection, then another connection's commit: each is seen on the next view.
    sqlite.prepare("update surgeries set hospital = 'Hospital Novo' where id = ?").run(surgeryId);
    expect(hospitalShown()).toBe("Hospital Novo");
    const other = new Database(databasePath);
    try {
      other.prepare("update surgeries set hospital = 'Hospital Outro' where id = ?").run(surgeryId);
    } finally {
      other.close();
    }
    expect(hospitalShown()).toBe("Hospital Outro");

    // The patients list and the appointments list the same way.
    expect(patientsPage("quiteria").rows.map((row) => row.name)).toEqual(["Quitéria Listada"]);
    expect(viewed(() => patientsPage("quiteria")).read).toBe(false);
    sqlite.prepare("update patients set name = 'Quitéria Renomeada' where id = ?").run(patientId);
    expect(patientsPage("quiteria").rows.map((row) => row.name)).toEqual(["Quitéria Renomeada"]);
    const appointmentsPage = () => {
      const { filters, ...state } = parseListState(new URL("http://localhost/appointments?q=quiteria"), APPOINTMENT_LIST);
      return listAppointments(state, filters);
    };
    expect(appointmentsPage().rows).toEqual([]);
    db.insert(appointments)
      .values({ patientId, doctorId, startTime: new Date("2026-05-05T13:00:00Z"), endTime: new Date("2026-05-05T13:30:00Z"), type: "consulta", status: "scheduled" })
      .run();
    expect(appointmentsPage().rows.map((row) => row.patientName)).toEqual(["Quitéria Renomeada"]);
    expect(viewed(appointmentsPage).read).toBe(false);
  });

  it("outlives writes to tables it does not read: a task, a hospital, a payer; not one to the patients or doctors it names", () => {
    const doctorId = insertDoctor("Dra. Tabelas Próprias", { crm: "661200" });
    const patientId = insertPatient("Zulmira Tabelada");
    db.insert(surgeries).values({ patientId, doctorId, surgeryType: "Artrodese", scheduledDate: new Date("2026-06-04T12:00:00Z") }).run();
    db.insert(appointments)
      .values({ patientId, doctorId, startTime: new Date("2026-06-05T13:00:00Z"), endTime: new Date("2026-06-05T13:30:00Z"), type: "consulta", status: "scheduled" })
      .run();
    const appointmentsPage = () => {
      const { filters, ...state } = parseListState(new URL("http://localhost/appointments?q=zulmira"), APPOINTMENT_LIST);
      return listAppointments(state, filters);
    };
    const pages = {
      patients: () => patientsPage("zulmira"),
      appointments: appointmentsPage,
      surgeries: () => surgeriesPage("q=zulmira"),
      "patient picker": () => searchPatientOptions("zulmira"),
      "doctor picker": () => searchDoctorOptions("tabelas"),
    };
    const readNow = () => Object.fromEntries(Object.entries(pages).map(([name, page]) => [name, viewed<unknown>(page).read]));
    for (const page of Object.values(pages)) page();
    const first = Object.fromEntries(Object.entries(pages).map(([name, page]) => [name, page()]));

    // Writes elsewhere, on this connection and from another: nothing is read again, the same objects handed out.
    sqlite.prepare("insert into tasks (title) values ('Ligar para a Zulmira')").run();
    insertHospital("Hospital de Outra Tabela");
    const other = new Database(databasePath);
    try {
      other.prepare("update payers set name = name").run();
    } finally {
      other.close();
    }
    expect(readNow()).toEqual({ patients: false, appointments: false, surgeries: false, "patient picker": false, "doctor picker": false });
    for (const [name, page] of Object.entries(pages)) expect(page(), name).toBe(first[name]);

    // The doctor renamed: the lists that name doctors show the new name; the patients' are kept.
    sqlite.prepare("update doctors set name = 'Dra. Tabelas Renomeada' where id = ?").run(doctorId);
    expect(readNow()).toEqual({ patients: false, appointments: true, surgeries: true, "patient picker": false, "doctor picker": true });
    expect(appointmentsPage().rows.map((row) => row.doctorName)).toEqual(["Dra. Tabelas Renomeada"]);
    expect(surgeriesPage("q=zulmira").rows.map((row) => row.doctorName)).toEqual(["Dra. Tabelas Renomeada"]);
    // The patient renamed by another connection: every list that names the patient reads it again.
    const again = new Database(databasePath);
    try {
      again.prepare("update patients set name = 'Zulmira Renomeada' where id = ?").run(patientId);
    } finally {
      again.close();
    }
    expect(readNow()).toEqual({ patients: true, appointments: true, surgeries: true, "patient picker": true, "doctor picker": false });
    expect(patientsPage("zulmira").rows.map((row) => row.name)).toEqual(["Zulmira Renomeada"]);
    expect(searchPatientOptions("zulmira").map((row) => row.name)).toEqual(["Zulmira Renomeada"]);
    expect(appointmentsPage().rows.map((row) => row.patientName)).toEqual(["Zulmira Renomeada"]);
    // An appointment written: the appointments' page is read again, the surgeries' is kept.
    db.insert(appointments)
      .values({ patientId, doctorId, startTime: new Date("2026-06-06T13:00:00Z"), endTime: new Date("2026-06-06T13:30:00Z"), type: "retorno", status: "scheduled" })
      .run();
    expect(readNow()).toEqual({ patients: false, appointments: true, surgeries: false, "patient picker": false, "doctor picker": false });
    expect(appointmentsPage().rows).toHaveLength(2);
  });
});

describe("a report kept over its own tables", () => {
  it("the fee report by doctor follows every write to fee lines and doctors, from any connection, and no other write", () => {
    const everyDate = { from: null, to: null, doctorId: null };
    const viewer = { ownDoctorOnly: false, doctorId: null };
    const report = () => feesByDoctor(everyDate, viewer);
    /** The report, and whether it read the fee lines to give it. */
    const viewed = () => {
      let rows: ReturnType<typeof report> = [];
      const read = capturePrepared(() => (rows = report())).some((statement) => /surgery_fee_lines|fee_doctor_months/.test(statement));
      return { rows, read };
    };
    const doctorId = insertDoctor("Dra. Honorária", { crm: "771122" });
    const surgeryId = db
      .insert(surgeries)
      .values({ patientId: insertPatient("Paciente dos Honorários"), doctorId, surgeryType: "Artrodese", scheduledDate: new Date("2026-03-10T12:00:00Z") })
      .returning({ id: surgeries.id })
      .get().id;
    db.insert(surgeryFeeLines).values({ surgeryId, doctorId, role: "principal", amountCents: 100_000 }).run();
    const mine = (rows: ReturnType<typeof report>) => rows.find((row) => row.id === doctorId);

    expect(mine(viewed().rows)).toMatchObject({ qty: 1, total: 100_000 });
    expect(viewed().read).toBe(false);
    // Writes elsewhere (a patient, a payer) leave it kept.
    insertPatient("Paciente Sem Honorários");
    insertPayer("Pagador Sem Honorários");
    expect(viewed()).toMatchObject({ read: false, rows: computeFeesByDoctor(everyDate, viewer) });

    // A line written by another connection, a doctor renamed, a line changed by its surgery's new date,
    // and a line deleted with its surgery: each is read again, equal to the report computed afresh.
    const other = new Database(databasePath);
    try {
      other.prepare("insert into surgery_fee_lines (surgery_id, doctor_id, role, amount_cents) values (?, ?, 'auxiliar', 30000)").run(surgeryId, doctorId);
    } finally {
      other.close();
    }
    const afterInsert = viewed();
    expect(afterInsert.read).toBe(true);
    expect(mine(afterInsert.rows)).toMatchObject({ qty: 1, total_principal: 100_000, total_auxiliar: 30_000, total: 130_000 });
    sqlite.prepare("update doctors set name = 'Dra. Honorária Renomeada' where id = ?").run(doctorId);
    expect(mine(viewed().rows)?.name).toBe("Dra. Honorária Renomeada");
    const march = { from: "2026-03-01", to: "2026-03-31", doctorId };
    expect(mine(feesByDoctor(march, viewer))).toMatchObject({ total: 130_000 });
    sqlite.prepare("update surgeries set scheduled_date = ? where id = ?").run(Date.parse("2026-04-10T12:00:00Z"), surgeryId);
    expect(mine(feesByDoctor(march, viewer))).toBeUndefined();
    sqlite.prepare("delete from surgeries where id = ?").run(surgeryId);
    const afterDelete = viewed();
    expect(afterDelete.read).toBe(true);
    expect(mine(afterDelete.rows)).toBeUndefined();
    expect(afterDelete.rows).toEqual(computeFeesByDoctor(everyDate, viewer));

    // Within a transaction the report is computed but not kept: a rolled-back version could come back.
    sqlite.transaction(() => expect(viewed().read).toBe(true))();
    expect(viewed().read).toBe(false);
  });

  it("the payer summary follows every write to surgeries and payers, and no other write", () => {
    const everyDate = { from: null, to: null, payerId: null };
    const viewed = () => {
      let rows: ReturnType<typeof payerSummary> = [];
      const read = capturePrepared(() => (rows = payerSummary(everyDate))).some((statement) => statement.includes('"surgeries"'));
      return { rows, read };
    };
    const payerId = insertPayer("Convênio do Resumo");
    const doctorId = insertDoctor("Dr. do Resumo", { crm: "771133" });
    const surgeryId = db
      .insert(surgeries)
      .values({
        patientId: insertPatient("Paciente do Resumo"),
        doctorId,
        payerId,
        surgeryType: "Artrodese",
        scheduledDate: new Date("2026-03-10T12:00:00Z"),
        receivableStatus: "faturado",
        billedAmountCents: 500_000,
      })
      .returning({ id: surgeries.id })
      .get().id;
    const mine = (rows: ReturnType<typeof payerSummary>) => rows.find((row) => row.id === payerId);

    expect(mine(viewed().rows)).toMatchObject({ qty: 1, total: 500_000 });
    expect(viewed().read).toBe(false);
    insertPatient("Outro Paciente do Resumo");
    expect(viewed()).toMatchObject({ read: false, rows: computePayerSummary(everyDate) });

    // A surgery's billing changed by another connection, and the payer renamed: read again.
    const other = new Database(databasePath);
    try {
      other.prepare("update surgeries set billed_amount_cents = 650000 where id = ?").run(surgeryId);
    } finally {
      other.close();
    }
    const afterBilling = viewed();
    expect(afterBilling.read).toBe(true);
    expect(mine(afterBilling.rows)).toMatchObject({ qty: 1, total: 650_000 });
    sqlite.prepare("update payers set name = 'Convênio do Resumo Renomeado' where id = ?").run(payerId);
    expect(mine(viewed().rows)?.name).toBe("Convênio do Resumo Renomeado");
    expect(viewed().rows).toEqual(computePayerSummary(everyDate));
  });
});
