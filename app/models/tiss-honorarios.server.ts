import { createHash } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { validateXML } from "xmllint-wasm";
import { doctors, hospitals, medicalCodes, patients, payerTissSettings, payers, surgeries, surgeryFeeLines, surgeryProcedures } from "~db/schema";
import { db, preparedQuery } from "~/.server/db";
import { formatInClinic, isoDateInClinic, todayIsoInClinic } from "~/lib/dates";
import { TISS_MAX_GUIDES_PER_LOTE, type TissGuide, type TissLote, UF_IBGE, cboOf, loteXml, participationDegree } from "~/lib/tiss";
import type { TissVersion } from "~/lib/receivables";
// The schema shipped with the product: a hand-written subset of ANS TISS 4.01.00 (see its header).
import TISS_XSD_4_01_00 from "~/.server/tiss/tiss-honorarios-v4_01_00.xsd?raw";
import { getClinicSettings } from "./settings.server";

/**
 * The TISS Guia de Honorários of surgeries billed to an insurer (ADR 0019): gathered from the
 * surgery's fee lines (the fee engine's, overrides included), its procedures, team, patient,
 * hospital and the payer's TISS settings. A guide with data missing is refused with a message
 * naming what is missing; the lote is validated against the shipped schema before it is offered,
 * so an invalid file is never produced.
 */

const XSD: Record<TissVersion, string> = { "4.01.00": TISS_XSD_4_01_00 };

export class TissRefusal extends Error {}

const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");
const digits = (text: string | null | undefined) => (text ?? "").replace(/\D/g, "");

interface GuideParts {
  guide: TissGuide;
  payerId: number;
  ansRegistration: string;
  providerCode: string;
  version: TissVersion;
}

/** Gathers one surgery's guide, or the list of what is missing (in Portuguese, for the user). */
function gatherGuide(surgeryId: number, issuedOn: string): { ok: true; parts: GuideParts } | { ok: false; missing: string[]; label: string } {
  const row = db
    .select({
      id: surgeries.id,
      scheduledDate: surgeries.scheduledDate,
      guideNumber: surgeries.guideNumber,
      receivableStatus: surgeries.receivableStatus,
      payerId: payers.id,
      payerName: payers.name,
      payerType: payers.type,
      ansRegistration: payers.ansRegistration,
      tissVersion: payerTissSettings.tissVersion,
      providerCode: payerTissSettings.providerCode,
      patientName: patients.name,
      cardNumber: patients.insuranceCardNumber,
      hospitalName: hospitals.name,
      hospitalCnpj: hospitals.cnpj,
      hospitalCnes: hospitals.cnes,
    })
    .from(surgeries)
    .innerJoin(patients, eq(patients.id, surgeries.patientId))
    .leftJoin(payers, eq(payers.id, surgeries.payerId))
    .leftJoin(payerTissSettings, eq(payerTissSettings.payerId, surgeries.payerId))
    .leftJoin(hospitals, eq(hospitals.id, surgeries.hospitalId))
    .where(eq(surgeries.id, surgeryId))
    .get();
  if (!row) return { ok: false, missing: ["cirurgia não encontrada"], label: `Cirurgia ${surgeryId}` };
  const label = `Cirurgia ${row.id} (${row.patientName})`;
  const missing: string[] = [];
  if (!row.payerId || row.payerType !== "insurance") return { ok: false, missing: ["a cirurgia não está vinculada a um convênio (a Guia de Honorários é só para convênios)"], label };
  if (!row.receivableStatus || row.receivableStatus === "realizado") missing.push("a cirurgia ainda não foi faturada (status Faturado ou posterior)");
  if (!/^\d{6}$/.test(row.ansRegistration ?? "")) missing.push(`registro ANS do convênio ${row.payerName} (6 dígitos, em Cadastros)`);
  if (!row.tissVersion || !row.providerCode) missing.push(`configuração TISS do convênio ${row.payerName} (versão e código do prestador na operadora)`);
  if (!row.guideNumber?.trim()) missing.push("número da guia de solicitação de internação autorizada");
  if (!row.cardNumber?.trim()) missing.push("número da carteira do beneficiário (cadastro do paciente)");
  if (!row.hospitalName) missing.push("hospital da cirurgia");
  else if (!/^\d{7}$/.test(row.hospitalCnes ?? "")) missing.push(`CNES do hospital ${row.hospitalName}`);
  const date = isoDateInClinic(row.scheduledDate);
  if (!date) missing.push("data da cirurgia");

  const lines = db
    .select({
      role: surgeryFeeLines.role,
      position: surgeryFeeLines.position,
      amountCents: surgeryFeeLines.amountCents,
      procedurePercent: surgeryFeeLines.procedurePercent,
      urgencyPercent: surgeryFeeLines.urgencyPercent,
      medicalCodeId: surgeryFeeLines.medicalCodeId,
      code: medicalCodes.code,
      codeType: medicalCodes.type,
      description: medicalCodes.description,
      doctorName: doctors.name,
      crm: doctors.crm,
      crmUf: doctors.crmUf,
      specialty: doctors.specialty,
    })
    .from(surgeryFeeLines)
    .innerJoin(doctors, eq(doctors.id, surgeryFeeLines.doctorId))
    .leftJoin(medicalCodes, eq(medicalCodes.id, surgeryFeeLines.medicalCodeId))
    .where(eq(surgeryFeeLines.surgeryId, surgeryId))
    .orderBy(asc(surgeryFeeLines.id))
    .all();
  if (!lines.length) missing.push("linhas de honorários (calcule os honorários da cirurgia)");
  const routes = db
    .select({ medicalCodeId: surgeryProcedures.medicalCodeId, position: surgeryProcedures.position, accessRoute: surgeryProcedures.accessRoute })
    .from(surgeryProcedures)
    .where(eq(surgeryProcedures.surgeryId, surgeryId))
    .all();
  const routeOf = (medicalCodeId: number | null): "1" | "2" | "3" => {
    if (routes.length <= 1) return "1";
    const procedure = routes.find((r) => r.medicalCodeId === medicalCodeId);
    if (!procedure || procedure.position === 1) return routes.some((r) => r.position !== 1 && r.accessRoute === "different") ? "3" : "2";
    return procedure.accessRoute === "different" ? "3" : "2";
  };

  const named = new Set<string>();
  const procedures: TissGuide["procedures"] = [];
  for (const line of lines) {
    const code = digits(line.code);
    if (!line.code || (line.codeType !== "cbhpm" && line.codeType !== "tuss") || code.length !== 8) {
      missing.push(`código TUSS/CBHPM de 8 dígitos de um procedimento de ${line.doctorName}`);
      continue;
    }
    if (!named.has(line.doctorName)) {
      named.add(line.doctorName);
      if (!digits(line.crm)) missing.push(`número do CRM de ${line.doctorName}`);
      if (!UF_IBGE[(line.crmUf ?? "").toUpperCase()]) missing.push(`UF do CRM de ${line.doctorName}`);
      if (!cboOf(line.specialty)) missing.push(`CBO de ${line.doctorName} (especialidade '${line.specialty}' sem código CBO conhecido)`);
    }
    const factor = Math.round(((line.procedurePercent ?? 100) / 100) * (1 + (line.urgencyPercent ?? 0) / 100) * 100) / 100;
    procedures.push({
      date: date ?? "",
      code,
      description: line.description ?? line.code,
      accessRoute: routeOf(line.medicalCodeId),
      // The technique is not recorded per procedure: conventional (1).
      technique: "1",
      factor,
      unitCents: factor > 0 ? Math.round(line.amountCents / factor) : line.amountCents,
      totalCents: line.amountCents,
      professional: {
        degree: participationDegree(line.role, line.position),
        name: line.doctorName,
        cpfOrCode: { code: digits(line.crm) },
        councilNumber: digits(line.crm),
        uf: UF_IBGE[(line.crmUf ?? "").toUpperCase()] ?? "",
        cbo: cboOf(line.specialty) ?? "",
      },
    });
  }
  if (missing.length) return { ok: false, missing: [...new Set(missing)], label };

  const clinic = getClinicSettings();
  return {
    ok: true,
    parts: {
      payerId: row.payerId,
      ansRegistration: row.ansRegistration as string,
      providerCode: row.providerCode as string,
      version: row.tissVersion as TissVersion,
      guide: {
        ansRegistration: row.ansRegistration as string,
        providerGuideNumber: String(row.id),
        authorizedRequestGuide: (row.guideNumber as string).trim(),
        beneficiary: { cardNumber: (row.cardNumber as string).trim(), name: row.patientName },
        place: { cnpj: digits(row.hospitalCnpj).length === 14 ? digits(row.hospitalCnpj) : null, providerCode: row.providerCode as string, name: row.hospitalName as string, cnes: row.hospitalCnes as string },
        executor: { providerCode: row.providerCode as string, name: clinic.clinicName },
        billingStart: date as string,
        billingEnd: date as string,
        procedures,
        totalCents: procedures.reduce((sum, p) => sum + p.totalCents, 0),
        issuedOn,
      },
    },
  };
}

function refusalOf(label: string, missing: string[]) {
  return `${label}: faltam dados para a Guia de Honorários TISS — ${missing.join("; ")}.`;
}

/** Validates a message against the schema of its version; the errors as xmllint gives them. */
export async function validateTissXml(xml: string, version: TissVersion = "4.01.00"): Promise<{ valid: boolean; errors: string[] }> {
  const result = await validateXML({ xml: [{ fileName: "guia.xml", contents: xml }], schema: [{ fileName: "tiss.xsd", contents: XSD[version] }] });
  return { valid: result.valid, errors: result.errors.map((e) => e.rawMessage) };
}

async function validLote(lote: TissLote): Promise<string> {
  const xml = loteXml(lote, md5);
  const check = await validateTissXml(xml, lote.version);
  if (!check.valid) throw new TissRefusal(`O arquivo TISS gerado não passou na validação do schema ${lote.version}: ${check.errors.slice(0, 3).join(" | ")}`);
  return xml;
}

function issuedAt(now: Date) {
  return { date: todayIsoInClinic(now), time: formatInClinic(now, "HH:mm:ss") };
}

/** One surgery's Guia de Honorários as a lote of one guide (the surgery's id numbers the lote). */
export async function surgeryGuideXml(surgeryId: number, now = new Date()): Promise<{ xml: string; fileName: string }> {
  const gathered = gatherGuide(surgeryId, todayIsoInClinic(now));
  if (!gathered.ok) throw new TissRefusal(refusalOf(gathered.label, gathered.missing));
  const { parts } = gathered;
  const xml = await validLote({
    version: parts.version,
    providerCode: parts.providerCode,
    ansRegistration: parts.ansRegistration,
    loteNumber: surgeryId,
    transactionNumber: surgeryId,
    issuedAt: issuedAt(now),
    guides: [parts.guide],
  });
  return { xml, fileName: `guia-honorarios-${surgeryId}.xml` };
}

/**
 * A payer's batch: its surgeries in 'faturado' (billed, guides to send), in date order through the
 * receivables index (status, payer, date), cut into lotes of 100; `lote` is 1-based.
 */
function billedWhere(payerId: number) {
  return and(eq(surgeries.receivableStatus, "faturado"), eq(surgeries.payerId, payerId));
}

export function payerLoteCount(payerId: number): number {
  const { n } = db.select({ n: sql<number>`count(*)` }).from(surgeries).where(billedWhere(payerId)).get() ?? { n: 0 };
  return Math.ceil(n / TISS_MAX_GUIDES_PER_LOTE);
}

export async function payerLoteXml(payerId: number, loteNumber: number, now = new Date()): Promise<{ xml: string; fileName: string; guides: number }> {
  const payer = db.select({ name: payers.name }).from(payers).where(eq(payers.id, payerId)).get();
  if (!payer) throw new TissRefusal("Convênio não encontrado.");
  const ids = db
    .select({ id: surgeries.id })
    .from(surgeries)
    .where(billedWhere(payerId))
    .orderBy(asc(surgeries.scheduledDate), asc(surgeries.id))
    .limit(TISS_MAX_GUIDES_PER_LOTE)
    .offset((loteNumber - 1) * TISS_MAX_GUIDES_PER_LOTE)
    .all()
    .map((r) => r.id);
  if (!ids.length) throw new TissRefusal(`Nenhuma cirurgia faturada de ${payer.name} ${loteNumber > 1 ? `no lote ${loteNumber}` : ""}.`);
  const issuedOn = todayIsoInClinic(now);
  const guides: GuideParts[] = [];
  const refusals: string[] = [];
  for (const id of ids) {
    const gathered = gatherGuide(id, issuedOn);
    if (gathered.ok) guides.push(gathered.parts);
    else refusals.push(refusalOf(gathered.label, gathered.missing));
  }
  if (refusals.length) throw new TissRefusal(`Lote ${loteNumber} de ${payer.name} não gerado. ${refusals.slice(0, 5).join(" ")}${refusals.length > 5 ? ` (e mais ${refusals.length - 5} cirurgias)` : ""}`);
  const [first] = guides;
  const xml = await validLote({
    version: first.version,
    providerCode: first.providerCode,
    ansRegistration: first.ansRegistration,
    loteNumber,
    transactionNumber: Number(`${payerId}${String(loteNumber).padStart(4, "0")}`),
    issuedAt: issuedAt(now),
    guides: guides.map((g) => g.guide),
  });
  return { xml, fileName: `lote-tiss-${payerId}-${loteNumber}.xml`, guides: guides.length };
}

/** Whether the surgery is billed to an insurer (the Guia de Honorários applies). */
export function billedToInsurer(surgeryId: number): boolean {
  return payerTypeQuery().get({ surgeryId })?.type === "insurance";
}
const payerTypeQuery = preparedQuery(() =>
  db.select({ type: payers.type }).from(surgeries).innerJoin(payers, eq(payers.id, surgeries.payerId)).where(eq(surgeries.id, sql.placeholder("surgeryId"))).prepare(),
);
