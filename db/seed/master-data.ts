import { formatPhone } from "../../app/lib/documents";
import { buildSearchText } from "../../app/lib/search";
import { hospitalSearchText } from "../../app/lib/master-data-search";
import { medicalCodeSearchText } from "../../app/lib/master-data-search";
import { payerSearchText } from "../../app/lib/master-data-search";
import { TISS_VERSIONS } from "../../app/lib/receivables";
import { supplierSearchText } from "../../app/lib/master-data-search";
import * as schema from "../schema";
import {
  cbhpmCode,
  CUSTOM_CODES,
  type HospitalSeed,
  HOSPITALS,
  ICD10_CODES,
  type PayerSeed,
  PAYERS,
  PORTE_2017_CENTS,
  PROCEDURES,
  REFERRERS,
  type SupplierSeed,
  SUPPLIERS,
} from "./catalog";
import { insertRows, roundCents, type SeedContext } from "./context";
import { generateCnpj, generateLandline } from "./documents";

export interface MasterData {
  payerByName: Map<string, PayerSeed & { id: number }>;
  hospitals: Array<HospitalSeed & { id: number }>;
  supplierByName: Map<string, SupplierSeed & { id: number }>;
  /** Medical code ids by `type:code` ('cbhpm:3.07.15.01-6'). */
  codeIdByKey: Map<string, number>;
}

/** Payers, hospitals, suppliers, medical codes and the reference fee tables (Cadastros). */
export function seedMasterData(ctx: SeedContext): MasterData {
  const payerByName = seedPayers(ctx);
  const hospitals = seedHospitals(ctx);
  const supplierByName = seedSuppliers(ctx);
  const codeIdByKey = seedMedicalCodes(ctx);
  seedReferenceFeeSchedules(ctx, payerByName);
  return { payerByName, hospitals, supplierByName, codeIdByKey };
}

function seedPayers({ tx, random }: SeedContext) {
  const payerRows = PAYERS.map((p, i) => {
    const cnpj = p.type === "private" ? null : generateCnpj(random);
    // Registro ANS for insurers (demo numbers, not drawn from `random` so the rest of the data set stays as it was).
    const ansRegistration = p.type === "insurance" ? String(300_000 + i * 4_721).padStart(6, "0") : null;
    // The SUS and one insurer still pay assistants by the old 30/20/20/20 split.
    const oldSplit = p.type === "government" || p.name === "Amil";
    return {
      ansRegistration,
      assistant1FeePercent: oldSplit ? 30 : 60,
      assistant2FeePercent: oldSplit ? 20 : 40,
      assistant3FeePercent: oldSplit ? 20 : 30,
      assistant4FeePercent: oldSplit ? 20 : 30,
      cbhpmEdition: p.type === "insurance" ? "2022" : null,
      cbhpmBand: p.name === "Unimed" ? ("faixa_1" as const) : ("original" as const),
      name: p.name,
      type: p.type,
      cnpj,
      contactEmail: p.email,
      contactPhone: p.phone,
      paymentTermsDays: p.paymentTermsDays,
      coveragePercentage: p.coveragePercentage,
      active: true,
      notes: p.notes,
      searchText: payerSearchText({ name: p.name, cnpj, ansRegistration, contactEmail: p.email, type: p.type }),
    };
  });
  const payerIds = insertRows(tx, schema.payers, payerRows);
  // Every insurer has the clinic's code there, so the billed surgeries' TISS guides can be generated.
  const tissRows = PAYERS.flatMap((p, i) =>
    p.type === "insurance" ? [{ payerId: payerIds[i], tissVersion: TISS_VERSIONS[0], providerCode: String(880_000 + i * 311) }] : [],
  );
  if (tissRows.length) tx.insert(schema.payerTissSettings).values(tissRows).run();
  return new Map(PAYERS.map((p, i) => [p.name, { ...p, id: payerIds[i] }]));
}

function seedHospitals({ tx, random }: SeedContext) {
  const hospitalIds = insertRows(
    tx,
    schema.hospitals,
    HOSPITALS.map((h, i) => {
      const cnpj = generateCnpj(random);
      const cnes = String(2_077_000 + i * 137);
      return {
        name: h.name,
        cnpj,
        cnes,
        address: h.address,
        city: h.city,
        state: "SP",
        postalCode: h.postalCode,
        contactEmail: h.email,
        contactPhone: h.phone,
        type: h.type,
        accreditation: h.accreditation,
        active: true,
        notes: h.type === "public" ? "Atendimento de pacientes SUS via regulação (CROSS)." : null,
        searchText: hospitalSearchText({ name: h.name, city: h.city, cnpj, cnes, type: h.type }),
      };
    }),
  );
  return HOSPITALS.map((h, i) => ({ ...h, id: hospitalIds[i] }));
}

function seedSuppliers({ tx, random }: SeedContext) {
  const supplierIds = insertRows(
    tx,
    schema.suppliers,
    SUPPLIERS.map((s) => {
      const cnpj = generateCnpj(random);
      return {
        name: s.name,
        cnpj,
        type: s.type,
        contactEmail: s.email,
        contactPhone: s.phone,
        address: s.address,
        paymentTermsDays: s.paymentTermsDays,
        qualityRating: s.qualityRating,
        active: s.name !== "LavClean Esterilização",
        notes: s.notes,
        searchText: supplierSearchText({ name: s.name, cnpj, contactEmail: s.email, type: s.type }),
      };
    }),
  );
  return new Map(SUPPLIERS.map((s, i) => [s.name, { ...s, id: supplierIds[i] }]));
}

/** Nº de auxiliares and porte anestésico of the CBHPM 2022 codes DOMAIN.md §1 lists, by TUSS code. */
const CBHPM_ASSISTANTS_AND_ANESTHESIA: Record<string, [number, number]> = {
  "30715016": [2, 8],
  "30715024": [2, 8],
  "30715091": [2, 5],
  "30715180": [1, 6],
  "30715393": [2, 8],
  "30715199": [2, 5],
  "30715369": [2, 6],
  "30715059": [2, 7],
  "30715580": [1, 5],
  "31401155": [2, 7],
  "31401163": [2, 8],
  "31401171": [2, 7],
  "31401309": [2, 5],
  "31401236": [2, 6],
  "30215021": [2, 5],
};

/** CBHPM codes of every procedure, TUSS for every other one, CID-10 and the practice's own codes. */
function seedMedicalCodes({ tx }: SeedContext) {
  const codeRows: Array<typeof schema.medicalCodes.$inferInsert> = [];
  for (const p of PROCEDURES) {
    const cbhpm = CBHPM_ASSISTANTS_AND_ANESTHESIA[p.tuss];
    codeRows.push({
      code: cbhpmCode(p.tuss),
      type: "cbhpm",
      description: p.description,
      category: p.category,
      priceCents: PORTE_2017_CENTS[p.porte],
      porte: p.porte,
      assistantsCount: cbhpm?.[0] ?? null,
      anestheticPorte: cbhpm?.[1] ?? null,
      active: true,
    });
  }
  for (const p of PROCEDURES.filter((_, i) => i % 2 === 0)) {
    codeRows.push({ code: p.tuss, type: "tuss", description: p.description, category: p.category, priceCents: null, active: true });
  }
  for (const c of ICD10_CODES) {
    codeRows.push({ code: c.code, type: "icd10", description: c.description, category: c.category, priceCents: null, active: true });
  }
  for (const c of CUSTOM_CODES) {
    codeRows.push({ code: c.code, type: "custom", description: c.description, category: c.category, priceCents: c.priceCents, active: c.code !== "SIN-TELE-01" });
  }
  for (const row of codeRows) row.searchText = medicalCodeSearchText(row);
  const codeIds = insertRows(tx, schema.medicalCodes, codeRows);
  return new Map(codeRows.map((row, i) => [`${row.type}:${row.code}`, codeIds[i]]));
}

/** CBHPM 2017, two payers' negotiated TUSS tables for this year, private prices. */
function seedReferenceFeeSchedules({ tx, today }: SeedContext, payerByName: MasterData["payerByName"]) {
  const year = Number(today.slice(0, 4));
  const scheduleRows: Array<typeof schema.referenceFeeSchedules.$inferInsert> = [];
  for (const p of PROCEDURES) {
    const base = PORTE_2017_CENTS[p.porte];
    scheduleRows.push({ kind: "CBHPM", year: 2017, version: "", code: cbhpmCode(p.tuss), description: p.description, baseValueCents: base });
    for (const payer of ["Unimed", "Bradesco Saúde"]) {
      const factor = payerByName.get(payer)!.feeFactor;
      scheduleRows.push({ kind: "TUSS", year, version: payer, code: p.tuss, description: p.description, baseValueCents: roundCents(base * factor) });
    }
  }
  for (const c of CUSTOM_CODES) {
    scheduleRows.push({ kind: "CUSTOM", year, version: "Particular", code: c.code, description: c.description, baseValueCents: c.priceCents });
  }
  insertRows(tx, schema.referenceFeeSchedules, scheduleRows);
}

/** The physicians who refer patients to the practice (encaminhadores). */
export function seedReferrers({ tx, random }: SeedContext): number[] {
  return insertRows(
    tx,
    schema.referrers,
    REFERRERS.map((r) => {
      const phone = generateLandline(random);
      return {
        name: r.name,
        specialty: r.specialty,
        crm: r.crm?.replace(/\D/g, "") ?? null,
        crmUf: r.crm?.startsWith("CRM-SP") ? "SP" : null,
        phone,
        email: r.email,
        commissionRate: 0,
        notes: r.notes,
        active: true,
        searchText: buildSearchText(r.name, r.specialty, r.crm, r.email, formatPhone(phone)),
      };
    }),
  );
}

/** 'Encaminhado por': one patient in seven came through a referrer (deterministic, no draw from `random`). */
export function seedReferrals({ tx }: SeedContext, referrerIds: number[], patientIds: number[]) {
  if (!referrerIds.length) return;
  const rows = patientIds
    .filter((_, i) => i % 7 === 3)
    .map((patientId, i) => ({ patientId, referrerId: referrerIds[i % referrerIds.length] }));
  for (let i = 0; i < rows.length; i += 200) tx.insert(schema.patientReferrals).values(rows.slice(i, i + 200)).run();
}
