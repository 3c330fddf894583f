import { beforeAll, describe, expect, it } from "vitest";
import { medicalCodes, surgeries } from "~db/schema";
import { db, sqlite } from "~/.server/db";
import { medicalCodeSearchText } from "~/lib/master-data-search";
import { NEURO_GROUPS, filterNeuroGroups, neuroStats, parseNeuroArea } from "~/lib/neurosurgery";
import { loader as exportLoader } from "~/routes/neurosurgery-export";
import { loader as neuroLoader } from "~/routes/neurosurgery";
import { loader as proceduresLoader } from "~/routes/procedures";
import { loader as groupsLoader } from "~/routes/surgical-groups";
import { listProcedures } from "~/models/procedure.server";
import { listSurgicalGroups } from "~/models/surgical-group.server";
import { type SignedIn, capturePrepared, getRequest, insertDoctor, insertPatient, loginAs, routeArgs, thrownResponse } from "./helpers";

let admin: SignedIn;
let staff: SignedIn;
let pending: SignedIn;

function addCode(code: string, type: "cbhpm" | "tuss" | "icd10" | "custom", description: string, active = true) {
  db.insert(medicalCodes)
    .values({ code, type, description, category: "Neurocirurgia", active, searchText: medicalCodeSearchText({ code, type, description, category: "Neurocirurgia" }) })
    .run();
}

beforeAll(async () => {
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  pending = await loginAs(null);
  addCode("3.07.15.18-0", "cbhpm", "Hérnia de disco tóraco-lombar – tratamento cirúrgico");
  addCode("3.14.01.15-5", "cbhpm", "Microcirurgia para tumores intracranianos");
  addCode("M51.1", "icd10", "Transtornos de discos lombares com radiculopatia");
  addCode("NEURO-01", "custom", "Pacote de avaliação pré-operatória", false);
});

describe("the neurosurgery catalogue", () => {
  it("has 12 groups in Coluna and Crânio with real CBHPM codes and the SPEC 2017 reference prices", () => {
    expect(NEURO_GROUPS).toHaveLength(12);
    expect(new Set(NEURO_GROUPS.map((g) => g.id)).size).toBe(12);
    for (const g of NEURO_GROUPS) expect(g.principal.code).toMatch(/^\d\.\d{2}\.\d{2}\.\d{2}-\d$/);
    const lami = NEURO_GROUPS.find((g) => g.principal.code === "3.07.15.19-9")!;
    expect(lami.principal).toMatchObject({ title: "Laminectomia ou laminotomia", priceBRL: 1141.07, year: 2017 });
    const tumour = NEURO_GROUPS.find((g) => g.principal.code === "3.14.01.15-5")!;
    expect(tumour.principal).toMatchObject({ title: "Microcirurgia para tumores intracranianos", priceBRL: 3809.81, year: 2017 });
  });

  it("searches accent-insensitively, by code with or without dots, and filters by area", () => {
    expect(filterNeuroGroups("cranio", null).length).toBeGreaterThan(0);
    expect(filterNeuroGroups("30715199", null).map((g) => g.id)).toContain("coluna-laminectomia");
    expect(filterNeuroGroups("3.07.15.19-9", null).map((g) => g.id)).toContain("coluna-laminectomia");
    expect(filterNeuroGroups("", parseNeuroArea("cranio")).every((g) => g.area === "Crânio")).toBe(true);
    expect(parseNeuroArea("Pescoço")).toBeNull();
    const stats = neuroStats(NEURO_GROUPS);
    expect(stats.groups).toBe(12);
    expect(stats.perArea.Coluna + stats.perArea["Crânio"]).toBe(12);
  });

  it("the screen follows ?area= and its stat cards follow the filter", async () => {
    const data = await neuroLoader(routeArgs(getRequest("/cirurgico/grupos/neurocirurgia?area=Coluna", { cookie: staff.cookie })));
    expect(data.area).toBe("Coluna");
    expect(data.groups.every((g) => g.area === "Coluna")).toBe(true);
    expect(data.stats.perArea["Crânio"]).toBe(0);
  });

  it("the CSV report has 12 rows with the two reference prices, Excel-BR (BOM, ';', decimal comma)", async () => {
    const response = (await exportLoader(routeArgs(getRequest("/cirurgico/grupos/neurocirurgia/export.csv", { cookie: staff.cookie })))) as Response;
    expect(response.headers.get("Content-Type")).toMatch(/text\/csv/);
    expect(response.headers.get("Content-Disposition")).toMatch(/neurocirurgia-grupos-\d{4}-\d{2}-\d{2}\.csv/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    const lines = text.slice(1).split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(13);
    expect(lines[0]).toBe("ID;Grupo;Área;Código principal;Procedimento principal;Preço (R$);Ano;Códigos sequenciais;OPMEs recomendadas;Observações");
    expect(lines.find((l) => l.includes("Laminectomia ou laminotomia;"))).toContain(";1141,07;2017;");
    expect(lines.find((l) => l.includes("Microcirurgia para tumores intracranianos;"))).toContain(";3809,81;2017;");
  });

  it("refuses an account without a role (403)", async () => {
    expect((await thrownResponse(neuroLoader(routeArgs(getRequest("/cirurgico/grupos/neurocirurgia", { cookie: pending.cookie }))))).status).toBe(403);
    expect((await thrownResponse(exportLoader(routeArgs(getRequest("/cirurgico/grupos/neurocirurgia/export.csv", { cookie: pending.cookie }))))).status).toBe(403);
  });
});

describe("/procedures", () => {
  const search = async (query: string) => {
    const data = await proceduresLoader(routeArgs(getRequest(`/procedures?${query}`, { cookie: staff.cookie })));
    return data.rows.map((r) => r.code);
  };

  it("finds a CBHPM code by its dotted and undotted form, and a CID-10 code with or without its dot", async () => {
    expect(await search("q=3.07.15.18-0")).toEqual(["3.07.15.18-0"]);
    expect(await search("q=30715180")).toEqual(["3.07.15.18-0"]);
    expect(await search("q=3071518")).toEqual(["3.07.15.18-0"]);
    expect(await search("q=M51.1")).toEqual(["M51.1"]);
    expect(await search("q=m511")).toEqual(["M51.1"]);
  });

  it("searches the description without accents and filters by type and active", async () => {
    expect(await search("q=hernia+toraco")).toEqual(["3.07.15.18-0"]);
    expect(await search("type=icd10")).toEqual(["M51.1"]);
    expect(await search("active=nao")).toEqual(["NEURO-01"]);
    expect(await search("active=sim&type=cbhpm")).toEqual(["3.07.15.18-0", "3.14.01.15-5"]);
  });

  it("walks the code index without sorting (EXPLAIN QUERY PLAN)", async () => {
    const state = (filters: Record<string, string | null>) => ({ q: "", page: 1, sort: "code" as const, dir: "asc" as const, filters: { type: null, active: null, ...filters } }) as never;
    const seen = capturePrepared(() => {
      listProcedures(state({ active: "sim" }));
      listProcedures(state({ type: "cbhpm" }));
      listProcedures({ ...(state({}) as object), q: "3071518" } as never);
    });
    const reads = seen.filter((s) => /from "medical_codes"/.test(s) && /order by/.test(s));
    expect(reads.length).toBeGreaterThan(0);
    for (const statement of reads) {
      const params = (statement.match(/\?/g) ?? []).map(() => 1);
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, statement).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    }
  });

  it("refuses an account without a role (403)", async () => {
    expect((await thrownResponse(proceduresLoader(routeArgs(getRequest("/procedures", { cookie: pending.cookie }))))).status).toBe(403);
  });
});

describe("/surgical-groups", () => {
  it("groups the doctors by specialty in specialty order, each with its surgery count", async () => {
    const patientId = insertPatient("Paciente Grupos");
    const neuroA = insertDoctor("Dra. Ana Neuro", { specialty: "Neurocirurgia" });
    const neuroB = insertDoctor("Dr. Bruno Neuro", { specialty: "Neurocirurgia" });
    insertDoctor("Dr. Carlos Orto", { specialty: "Ortopedia" });
    for (const doctorId of [neuroA, neuroA, neuroB]) {
      db.insert(surgeries).values({ patientId, doctorId, surgeryType: "Artrodese", scheduledDate: new Date("2026-05-01T12:00:00Z") }).run();
    }
    const data = await groupsLoader(routeArgs(getRequest("/surgical-groups", { cookie: staff.cookie })));
    const specialties = data.groups.map((g) => g.specialty);
    expect(specialties).toEqual([...specialties].sort((a, b) => a.localeCompare(b)));
    const neuro = data.groups.find((g) => g.specialty === "Neurocirurgia")!;
    expect(neuro).toMatchObject({ doctorCount: 2, surgeryCount: 3 });
    expect(neuro.doctors.map((d) => [d.name, d.surgeries])).toEqual([
      ["Dr. Bruno Neuro", 1],
      ["Dra. Ana Neuro", 2],
    ]);
    expect(data.groups.find((g) => g.specialty === "Ortopedia")).toMatchObject({ doctorCount: 1, surgeryCount: 0 });
  });

  it("refuses an account without a role (403)", async () => {
    expect((await thrownResponse(groupsLoader(routeArgs(getRequest("/surgical-groups", { cookie: pending.cookie }))))).status).toBe(403);
    expect(admin.id).toBeGreaterThan(0);
  });
});

describe("the surgical groups' plan", () => {
  it("counts surgeries through the doctor index, never scanning surgeries, once until the next write", () => {
    sqlite.prepare("update row_counts set n = n where table_name = 'doctors'").run(); // a write: counted again
    const seen = capturePrepared(() => listSurgicalGroups(1));
    const reads = seen.filter((s) => /surgeries/.test(s));
    expect(reads.length).toBe(1);
    expect(capturePrepared(() => listSurgicalGroups(1)).filter((s) => /surgeries/.test(s))).toEqual([]);
    for (const statement of reads) {
      const params = (statement.match(/\?/g) ?? []).map(() => "Neurocirurgia");
      const plan = (sqlite.prepare(`explain query plan ${statement}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
      expect(plan, statement).not.toMatch(/SCAN (surgeries|s)\b(?! USING)/);
      expect(plan, statement).toMatch(/surgeries_doctor/);
    }
  });
});
