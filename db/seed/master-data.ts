import { formatPhone } from "../../app/lib/documents";
import { buildSearchText } from "../../app/lib/search";
import { hospitalSearchText } from "../../app/models/hospital.server";
import { medicalCodeSearchText } from "../../app/models/medical-code.server";
import { payerSearchText } from "../../app/models/payer.server";
import { supplierSearchText } from "../../app/models/supplier.server";
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
  const payerRows = PAYERS.map((p) => {
    const cnpj = p.type === "private" ? null : generateCnpj(random);
    return {
      name: p.name,
      type: p.type,
      cnpj,
      contactEmail: p.email,
      contactPhone: p.phone,
      paymentTermsDays: p.paymentTermsDays,
      coveragePercentage: p.coveragePercentage,
      active: true,
      notes: p.notes,
      searchText: payerSearchText({ name: p.name, cnpj, contactEmail: p.email, type: p.type }),
    };
  });
  const payerIds = insertRows(tx, schema.payers, payerRows);
  return new Map(PAYERS.map((p, i) => [p.name, { ...p, id: payerIds[i] }]));
}

function seedHospitals({ tx, random }: SeedContext) {
  const hospitalIds = insertRows(
    tx,
    schema.hospitals,
    HOSPITALS.map((h) => {
      const cnpj = generateCnpj(random);
      return {
        name: h.name,
        cnpj,
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
        searchText: hospitalSearchText({ name: h.name, city: h.city, cnpj, type: h.type }),
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

/** CBHPM codes of every procedure, TUSS for every other one, CID-10 and the practice's own codes. */
function seedMedicalCodes({ tx }: SeedContext) {
  const codeRows: Array<typeof schema.medicalCodes.$inferInsert> = [];
  for (const p of PROCEDURES) {
    codeRows.push({ code: cbhpmCode(p.tuss), type: "cbhpm", description: p.description, category: p.category, priceCents: PORTE_2017_CENTS[p.porte], active: true });
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
export function seedReferrers({ tx, random }: SeedContext) {
  insertRows(
    tx,
    schema.referrers,
    REFERRERS.map((r) => {
      const phone = generateLandline(random);
      return {
        name: r.name,
        specialty: r.specialty,
        crm: r.crm,
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
