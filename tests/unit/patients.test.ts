import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { appointments, auditLog, doctors, patients, users } from "~db/schema";
import { db } from "~/.server/db";
import { sqlite } from "~/.server/db";
import { searchWords } from "~/.server/search-sql";
import { PatientError, createPatient, deletePatient, getPatient, listPatients, patientSearchText, searchPatientOptions, updatePatient } from "~/models/patient.server";
import { capturePrepared } from "../support/fixtures";
import { patientSchema } from "~/validation/patient";

const base = {
  cpf: null,
  dateOfBirth: null,
  phone: null,
  email: null,
  address: null,
  insurance: null,
  insuranceCardNumber: null,
  medicalHistory: null,
  whatsappOptIn: false,
};
// Audit entries point at real accounts.
const staff = db.insert(users).values({ email: "equipe@teste.local", passwordHash: "-" }).returning().get().id;
const other = db.insert(users).values({ email: "outra@teste.local", passwordHash: "-" }).returning().get().id;

const list = (q: string) => listPatients({ q, page: 1, sort: "name", dir: "asc" });

describe("patient schema", () => {
  const parse = (fields: Record<string, string>) => patientSchema.safeParse(fields);

  it("requires only the name", () => {
    expect(parse({ name: "Ana" }).success).toBe(true);
    const missing = parse({ name: "  " });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0].message).toBe("Informe o nome do paciente");
  });

  it("accepts a valid CPF with or without punctuation and stores digits", () => {
    expect(parse({ name: "Ana", cpf: "529.982.247-25" }).data?.cpf).toBe("52998224725");
    expect(parse({ name: "Ana", cpf: "52998224725" }).data?.cpf).toBe("52998224725");
  });

  it("refuses a CPF with wrong check digits", () => {
    const result = parse({ name: "Ana", cpf: "529.982.247-24" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe("CPF inválido");
  });

  it("refuses a birth date in the future and a bad e-mail", () => {
    expect(parse({ name: "Ana", dateOfBirth: "2999-01-01" }).error?.issues[0].message).toBe(
      "A data de nascimento não pode estar no futuro",
    );
    expect(parse({ name: "Ana", email: "ana@" }).error?.issues[0].message).toBe("E-mail inválido");
  });
});

describe("patients model", () => {
  it("creates, finds accent-insensitively and by CPF with or without punctuation", () => {
    const id = createPatient(staff, { ...base, name: "João Conceição", cpf: "52998224725", email: "joao@exemplo.com.br" });
    expect(getPatient(id)?.name).toBe("João Conceição");
    expect(list("joao").rows.map((r) => r.id)).toEqual([id]);
    expect(list("CONCEICAO").rows.map((r) => r.id)).toEqual([id]);
    expect(list("conceição").rows.map((r) => r.id)).toEqual([id]);
    expect(list("529.982.247-25").rows.map((r) => r.id)).toEqual([id]);
    expect(list("52998224725").rows.map((r) => r.id)).toEqual([id]);
    expect(list("982.247").rows.map((r) => r.id)).toEqual([id]);
    expect(list("exemplo.com").total).toBe(1);
    expect(list("maria").total).toBe(0);
  });

  it("keeps a search's page until the next write, and follows it", () => {
    const first = createPatient(staff, { ...base, name: "Zeferino Quintas" });
    expect(list("zeferino").rows.map((r) => r.id)).toEqual([first]);
    // Viewed again without a write: nothing is read.
    expect(capturePrepared(() => expect(list("zeferino").rows.map((r) => r.id)).toEqual([first]))).toEqual([]);
    const second = createPatient(staff, { ...base, name: "Zeferino Souza" });
    expect(list("zeferino").rows.map((r) => r.id)).toEqual([first, second]);
  });

  it("matches every word of the search, in any order", () => {
    const id = createPatient(staff, { ...base, name: "Sebastião da Rocha Silva" });
    expect(list("sebastiao silva").rows.map((r) => r.id)).toEqual([id]);
    expect(list("silva sebastiao").rows.map((r) => r.id)).toEqual([id]);
    expect(list("rocha da").rows.map((r) => r.id)).toEqual([id]);
    expect(list("sebastiao souza").total).toBe(0);
  });

  it("treats LIKE wildcards in the query literally", () => {
    createPatient(staff, { ...base, name: "Paciente 100% Teste" });
    expect(list("100%").total).toBe(1);
    expect(list("%").total).toBe(1);
    expect(list("_").total).toBe(0);
  });

  it("refuses a CPF already used by another patient, naming them", () => {
    expect(() => createPatient(staff, { ...base, name: "Outro", cpf: "52998224725" })).toThrow(
      "Este CPF já está cadastrado para João Conceição.",
    );
    const maria = createPatient(staff, { ...base, name: "Maria Outra", cpf: "11144477735" });
    expect(() => updatePatient(staff, maria, { ...base, name: "Maria Outra", cpf: "52998224725" })).toThrow(PatientError);
    // Saving a patient with their own CPF is not a clash.
    updatePatient(staff, maria, { ...base, name: "Maria Renomeada", cpf: "11144477735" });
    expect(getPatient(maria)?.name).toBe("Maria Renomeada");
  });

  it("sorts accented names with their letter", () => {
    createPatient(staff, { ...base, name: "Álvaro Barros" });
    createPatient(staff, { ...base, name: "Bruna Zé" });
    const names = listPatients({ q: "", page: 1, sort: "name", dir: "asc" }).rows.map((r) => r.name);
    expect(names.indexOf("Álvaro Barros")).toBeLessThan(names.indexOf("Bruna Zé"));
  });

  it("records who changed what in the audit log", () => {
    const id = createPatient(other, { ...base, name: "Auditada" });
    updatePatient(other, id, { ...base, name: "Auditada Silva", phone: "11987654321" });
    const entries = db.select().from(auditLog).where(eq(auditLog.entityId, String(id))).all();
    const update = entries.find((e) => e.action === "update" && e.entity === "patient");
    expect(update?.userId).toBe(other);
    // The trail names the fields a patient's change touched, never their values (ADR 0011).
    expect(update?.changes).toEqual({ fields: ["name", "phone"] });
    deletePatient(other, id);
    const trail = JSON.stringify(db.select().from(auditLog).where(eq(auditLog.entityId, String(id))).all());
    expect(trail).toContain('"action":"delete"');
    expect(trail).not.toContain("Auditada");
    expect(trail).not.toContain("11987654321");
  });

  it("refuses to delete a patient with appointments and deletes one without", () => {
    const id = createPatient(staff, { ...base, name: "Com Consulta" });
    const doctor = db.insert(doctors).values({ name: "Dr. Teste", specialty: "Neurocirurgia", crm: "1" }).returning().get();
    db.insert(appointments)
      .values({ patientId: id, doctorId: doctor.id, startTime: new Date("2026-05-01T13:00:00Z"), endTime: new Date("2026-05-01T13:30:00Z"), type: "Retorno" })
      .run();
    expect(() => deletePatient(staff, id)).toThrow("Não é possível excluir Com Consulta: há 1 consulta e 0 cirurgias ligadas a este paciente.");
    expect(getPatient(id)).not.toBeNull();
    // Prepared once: a view that names a patient (the files list's filter) compiles nothing.
    expect(capturePrepared(() => expect(getPatient(id)?.name).toBe("Com Consulta"))).toEqual([]);
    expect(getPatient(0)).toBeNull();

    const free = createPatient(staff, { ...base, name: "Sem Vínculos" });
    deletePatient(staff, free);
    expect(db.select().from(patients).where(eq(patients.id, free)).get()).toBeUndefined();
    expect(() => deletePatient(staff, free)).toThrow("Paciente não encontrado.");
  });

  it("pages in SQL with a total count", () => {
    db.transaction((tx) => {
      for (let i = 0; i < 60; i++) tx.insert(patients).values({ name: `Lote ${String(i).padStart(2, "0")}`, searchText: ` lote ${String(i).padStart(2, "0")} ` }).run();
    });
    const page1 = listPatients({ q: "lote", page: 1, sort: "name", dir: "asc" });
    const page3 = listPatients({ q: "lote", page: 3, sort: "name", dir: "asc" });
    expect(page1.total).toBe(60);
    expect(page1.rows).toHaveLength(25);
    expect(page1.rows[0].name).toBe("Lote 00");
    expect(page3.rows.map((r) => r.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Lote ${50 + i}`));
  });
});

describe("patient search through the trigram index", () => {
  // Names from a small vocabulary, so words repeat across patients as surnames do; CPFs for the digits path.
  const FIRST = ["Ana", "João", "Maria", "Zé", "Lúcia", "Valdir"];
  const LAST = ["Silva", "Souza", "Lima", "Sá", "Araújo", "Da Costa"];
  const made: number[] = [];
  const seedSearchCorpus = () => {
    if (made.length) return;
    for (let i = 0; i < 180; i += 1) {
      const name = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]} ${LAST[(i * 5 + 1) % LAST.length]} Busca${i % 9}`;
      const cpf = i % 10 === 0 ? null : String(10_000_000_000 + i * 7_919).slice(0, 11);
      made.push(db.insert(patients).values({ name, cpf, searchText: patientSearchText({ name, cpf, email: null, phone: null }) }).returning().get().id);
    }
  };
  /** The same search by brute force: every word somewhere in the key, or (for typed documents) the bare digits. */
  const bruteForce = (q: string) => {
    const words = searchWords(q);
    const digits = q.replace(/\D/g, "");
    const byWords = words.map((w) => `search_text like '%' || ? || '%'`).join(" and ");
    const withDigits = digits.length >= 3 && /^[\d\s.\-/()]+$/.test(q) && digits !== q.trim();
    const where = withDigits ? `(${byWords}) or search_text like '%' || ? || '%'` : byWords;
    const params = withDigits ? [...words, digits] : words;
    return sqlite.prepare(`select id from patients where ${where} order by search_text, id`).pluck().all(...params) as number[];
  };

  it("finds exactly what a scan of the key finds, with the same total and order, for long, short and document searches", () => {
    seedSearchCorpus();
    // Words of two characters are read from the index's trigrams that start with them ('an',
    // 'ma li'); 'qq' is in no key, alone, with a word of one character, or with the bare digits.
    const pairs = ["an", "ma li", "zé sá", "ui", "a ma", "qq", "qq a", "qq 100.000"];
    const queries = ["silva", "maria silva", "silva maria", "sá", "ze souza", "da costa", "busca3", "lucia araujo busca1", "joao sa busca0", "valdir", "100.000", "10000007919", "100.000.07", "inexistente", "lim", "a", ...pairs];
    for (const q of queries) {
      const expected = bruteForce(q);
      const page = list(q);
      expect(page.total, q).toBe(expected.length);
      expect(page.rows.map((r) => r.id), q).toEqual(expected.slice(0, 25));
      expect(searchPatientOptions(q, 10).map((r) => r.id), q).toEqual(expected.slice(0, 10));
    }
  });

  it("counts a search of long words in the index alone, without reading the patients", () => {
    seedSearchCorpus();
    const countsOnPatients = (q: string) => capturePrepared(() => list(q)).filter((text) => /count\(\*\)/.test(text) && /from "patients"/.test(text));
    expect(countsOnPatients("maria silva")).toEqual([]);
    expect(list("maria silva").total).toBe(bruteForce("maria silva").length);
    // A word of two letters is counted from the trigrams that start with it.
    expect(countsOnPatients("ze silva")).toEqual([]);
    expect(list("ze silva").total).toBe(bruteForce("ze silva").length);
    // One of one letter has none: that search still counts over the patients' key.
    expect(countsOnPatients("z silva")).toHaveLength(1);
  });

  it("finds a pair again after a write brings its first key", () => {
    seedSearchCorpus();
    expect(list("wq").total).toBe(0);
    expect(searchPatientOptions("wq", 10)).toEqual([]);
    const id = db.insert(patients).values({ name: "Awqa Teste", searchText: patientSearchText({ name: "Awqa Teste", cpf: null, email: null, phone: null }) }).returning().get().id;
    expect(list("wq").rows.map((r) => r.id)).toEqual([id]);
    expect(searchPatientOptions("wq", 10).map((r) => r.id)).toEqual([id]);
  });

  it("keeps a picker's matches until the next write", () => {
    seedSearchCorpus();
    const first = searchPatientOptions("silva", 10);
    expect(searchPatientOptions("silva", 10)).toBe(first);
    expect(searchPatientOptions("silva", 5)).toEqual(first.slice(0, 5));
    const id = db.insert(patients).values({ name: "Aaaron Silva", searchText: patientSearchText({ name: "Aaaron Silva", cpf: null, email: null, phone: null }) }).returning().get().id;
    expect(searchPatientOptions("silva", 10)[0].id).toBe(id);
  });

  it("stores every key between spaces, so a word of two characters is always followed by one in it", () => {
    seedSearchCorpus();
    expect(sqlite.prepare("select count(*) from patients where search_text <> '' and search_text not like ' % '").pluck().get()).toBe(0);
  });
});

