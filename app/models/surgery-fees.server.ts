import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import {
  doctors,
  medicalCodes,
  patients,
  payers,
  profiles,
  referenceFeeSchedules,
  surgeries,
  surgeryFeeLines,
  surgeryFeeSettings,
  surgeryProcedures,
  surgeryTeamMembers,
} from "~db/schema";
import { recordAudit } from "~/.server/audit";
import type { SessionUser } from "~/.server/auth";
import { writeCache } from "~/.server/data-cache";
import { type DB, type Tx, db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { type CbhpmBand, type SurgeryTeamRole, SURGERY_TEAM_ROLES } from "~/lib/enums";
import { DEFAULT_FEE_RULES, FeeEngineError, type FeeProcedure, type PayerFeeRules, computeFeeLines } from "~/lib/fees/engine";
import { PORTES, porteTableVersion } from "~/lib/fees/porte";
import { deriveUrgency } from "~/lib/fees/urgency";
import type { FeeOverrideInput, FeeSettingsInput, ProcedureInput, TeamInput } from "~/validation/surgery-fees";
import { clinicHolidaySet } from "./pipeline.server";
import { registryOption } from "~/lib/form-options";

/**
 * A surgery's honorários (ADR 0018): its procedures, team and fee settings, the fee lines the
 * engine (app/lib/fees/engine.ts) computes from them and the payer's rules and porte table, and
 * overrides with a reason. Every write is one transaction and audited.
 */
export class SurgeryFeeError extends DomainError {}

/** Most doctors a team select offers. */
const TEAM_OPTIONS_LIMIT = 500;

/** Whose fee lines a user may see: all (admin, staff) or only their own doctor's (a doctor; none when unlinked). */
export interface FeeViewer {
  ownDoctorOnly: boolean;
  doctorId: number | null;
}

export function feeViewerOf(user: Pick<SessionUser, "id" | "role">, conn: DB | Tx = db): FeeViewer {
  if (user.role !== "doctor") return { ownDoctorOnly: false, doctorId: null };
  const row = conn.select({ id: doctors.id }).from(doctors).where(eq(doctors.userId, user.id)).get();
  return { ownDoctorOnly: true, doctorId: row?.id ?? null };
}

/** 8 digits → the CBHPM form '3.07.15.18-0'. */
export function cbhpmFormat(digits: string): string {
  return `${digits[0]}.${digits.slice(1, 3)}.${digits.slice(3, 5)}.${digits.slice(5, 7)}-${digits[7]}`;
}

function surgeryBasics(conn: DB | Tx, surgeryId: number) {
  return (
    conn
      .select({
        id: surgeries.id,
        surgeryType: surgeries.surgeryType,
        scheduledDate: surgeries.scheduledDate,
        estimatedDurationMin: surgeries.estimatedDurationMin,
        doctorId: surgeries.doctorId,
        patientName: patients.name,
        payerId: surgeries.payerId,
        payerName: surgeries.payerName,
        hospital: surgeries.hospital,
      })
      .from(surgeries)
      .innerJoin(patients, eq(patients.id, surgeries.patientId))
      .where(eq(surgeries.id, surgeryId))
      .get() ?? null
  );
}

function payerRulesOf(conn: DB | Tx, payerId: number | null) {
  const payer = payerId ? conn.select().from(payers).where(eq(payers.id, payerId)).get() : undefined;
  if (!payer) return { payer: null, rules: DEFAULT_FEE_RULES, edition: null as number | null, band: "original" as CbhpmBand };
  const rules: PayerFeeRules = {
    assistantPercents: [payer.assistant1FeePercent, payer.assistant2FeePercent, payer.assistant3FeePercent, payer.assistant4FeePercent],
    multipleSameRoutePercent: payer.multipleSameRoutePercent,
    multipleOtherRoutePercent: payer.multipleOtherRoutePercent,
    urgencySurchargePercent: payer.urgencySurchargePercent,
  };
  const edition = payer.cbhpmEdition && /^\d{4}$/.test(payer.cbhpmEdition) ? Number(payer.cbhpmEdition) : null;
  return { payer: { id: payer.id, name: payer.name }, rules, edition, band: payer.cbhpmBand };
}

/**
 * The porte values the payer pays by: its edition and band; a payer without an agreed edition (or
 * no payer) is priced by the newest edition on file, same band (else 'Original').
 */
export function porteTableFor(conn: DB | Tx, edition: number | null, band: CbhpmBand) {
  const load = (year: number, b: CbhpmBand) =>
    conn
      .select({ code: referenceFeeSchedules.code, value: referenceFeeSchedules.baseValueCents })
      .from(referenceFeeSchedules)
      .where(and(eq(referenceFeeSchedules.kind, "CBHPM"), eq(referenceFeeSchedules.year, year), eq(referenceFeeSchedules.version, porteTableVersion(b)), inArray(referenceFeeSchedules.code, PORTES)))
      .all();
  const tryTable = (year: number, b: CbhpmBand) => {
    const rows = load(year, b);
    return rows.length ? { edition: year, band: b, values: Object.fromEntries(rows.map((r) => [r.code, r.value])) as Record<string, number> } : null;
  };
  if (edition !== null) return tryTable(edition, band) ?? (band !== "original" ? tryTable(edition, "original") : null);
  const newest = conn
    .select({ year: referenceFeeSchedules.year })
    .from(referenceFeeSchedules)
    .where(and(eq(referenceFeeSchedules.kind, "CBHPM"), eq(referenceFeeSchedules.code, "1A"), inArray(referenceFeeSchedules.version, [porteTableVersion(band), porteTableVersion("original")])))
    .orderBy(desc(referenceFeeSchedules.year))
    .limit(1)
    .get();
  return newest ? (tryTable(newest.year, band) ?? tryTable(newest.year, "original")) : null;
}

function proceduresOf(conn: DB | Tx, surgeryId: number) {
  return conn
    .select({
      id: surgeryProcedures.id,
      position: surgeryProcedures.position,
      accessRoute: surgeryProcedures.accessRoute,
      bilateral: surgeryProcedures.bilateral,
      codeId: medicalCodes.id,
      code: medicalCodes.code,
      description: medicalCodes.description,
      porte: medicalCodes.porte,
      assistantsCount: medicalCodes.assistantsCount,
      anestheticPorte: medicalCodes.anestheticPorte,
    })
    .from(surgeryProcedures)
    .innerJoin(medicalCodes, eq(medicalCodes.id, surgeryProcedures.medicalCodeId))
    .where(eq(surgeryProcedures.surgeryId, surgeryId))
    .orderBy(asc(surgeryProcedures.position))
    .all();
}

function teamOf(conn: DB | Tx, surgeryId: number): Partial<Record<SurgeryTeamRole, number>> {
  const rows = conn.select({ role: surgeryTeamMembers.role, doctorId: surgeryTeamMembers.doctorId }).from(surgeryTeamMembers).where(eq(surgeryTeamMembers.surgeryId, surgeryId)).all();
  return Object.fromEntries(rows.map((r) => [r.role, r.doctorId]));
}

function settingsOf(conn: DB | Tx, surgeryId: number) {
  return conn.select().from(surgeryFeeSettings).where(eq(surgeryFeeSettings.surgeryId, surgeryId)).get() ?? null;
}

/** The fee lines of a surgery, as the viewer may see them, with the professional's name. */
function linesOf(conn: DB | Tx, surgeryId: number, viewer: FeeViewer) {
  if (viewer.ownDoctorOnly && viewer.doctorId === null) return [];
  return conn
    .select({
      id: surgeryFeeLines.id,
      doctorId: surgeryFeeLines.doctorId,
      doctorName: doctors.name,
      role: surgeryFeeLines.role,
      position: surgeryFeeLines.position,
      code: medicalCodes.code,
      porte: surgeryFeeLines.porte,
      anestheticPorte: surgeryFeeLines.anestheticPorte,
      porteValueCents: surgeryFeeLines.porteValueCents,
      procedurePercent: surgeryFeeLines.procedurePercent,
      sharePercent: surgeryFeeLines.sharePercent,
      accommodationFactor: surgeryFeeLines.accommodationFactor,
      urgencyPercent: surgeryFeeLines.urgencyPercent,
      contralateral: surgeryFeeLines.contralateral,
      computedCents: surgeryFeeLines.computedCents,
      amountCents: surgeryFeeLines.amountCents,
      overrideReason: surgeryFeeLines.overrideReason,
      overriddenAt: surgeryFeeLines.overriddenAt,
      overriddenByName: profiles.name,
    })
    .from(surgeryFeeLines)
    .innerJoin(doctors, eq(doctors.id, surgeryFeeLines.doctorId))
    .leftJoin(medicalCodes, eq(medicalCodes.id, surgeryFeeLines.medicalCodeId))
    .leftJoin(profiles, eq(profiles.id, surgeryFeeLines.overriddenBy))
    .where(and(eq(surgeryFeeLines.surgeryId, surgeryId), viewer.ownDoctorOnly ? eq(surgeryFeeLines.doctorId, viewer.doctorId!) : undefined))
    .orderBy(asc(surgeryFeeLines.id))
    .limit(500)
    .all();
}

function urgencyOf(surgery: NonNullable<ReturnType<typeof surgeryBasics>>, mode: "auto" | "sim" | "nao", holidays: ReadonlySet<string>) {
  const derived = deriveUrgency(surgery.scheduledDate, surgery.estimatedDurationMin, holidays);
  return { derived, urgent: mode === "auto" ? derived.urgent : mode === "sim" };
}

/**
 * Everything the honorários screen of a surgery shows; null when the surgery does not exist. Kept
 * until the next write, per surgery and viewer (a doctor sees only their own lines): its ten reads
 * are not made again when the screen is reopened between changes. Callers must not modify it.
 */
export function surgeryFeeScreen(surgeryId: number, viewer: FeeViewer) {
  return feeScreensUntilWrite(JSON.stringify([surgeryId, viewer.ownDoctorOnly, viewer.doctorId]), () => readFeeScreen(surgeryId, viewer));
}
const feeScreensUntilWrite = writeCache(32);

function readFeeScreen(surgeryId: number, viewer: FeeViewer) {
  const surgery = surgeryBasics(db, surgeryId);
  if (!surgery) return null;
  const settings = settingsOf(db, surgeryId);
  const mode = settings?.urgency ?? "auto";
  const { payer, rules, edition, band } = payerRulesOf(db, surgery.payerId);
  const table = porteTableFor(db, edition, band);
  const lines = linesOf(db, surgeryId, viewer);
  const team = teamOf(db, surgeryId);
  return {
    surgery,
    payer,
    rules,
    porteTable: table ? { edition: table.edition, band: table.band } : null,
    procedures: proceduresOf(db, surgeryId),
    team: { ...team, cirurgiao: team.cirurgiao ?? surgery.doctorId },
    settings: { accommodation: settings?.accommodation ?? "enfermaria", urgency: mode, computedAt: settings?.computedAt ?? null },
    urgency: urgencyOf(surgery, mode, clinicHolidaySet()),
    lines,
    totalCents: lines.reduce((sum, line) => sum + line.amountCents, 0),
  };
}

/** The team selects' doctors (the active ones, and `include`'s even if inactive), kept until the next write. */
export function teamDoctorOptions(include: number[]) {
  return teamOptionsUntilWrite(JSON.stringify(include), () => readTeamDoctorOptions(include));
}
const teamOptionsUntilWrite = writeCache(32);

function readTeamDoctorOptions(include: number[]) {
  const rows = db.select({ id: doctors.id, name: doctors.name, active: doctors.active }).from(doctors).where(eq(doctors.active, true)).orderBy(asc(doctors.searchText), asc(doctors.id)).limit(TEAM_OPTIONS_LIMIT).all();
  const missing = include.filter((id) => !rows.some((r) => r.id === id));
  const extra = missing.length ? db.select({ id: doctors.id, name: doctors.name, active: doctors.active }).from(doctors).where(inArray(doctors.id, missing)).all() : [];
  return [...rows, ...extra].map(registryOption);
}

function requireSurgery(tx: Tx, surgeryId: number) {
  const surgery = surgeryBasics(tx, surgeryId);
  if (!surgery) throw new SurgeryFeeError("Cirurgia não encontrada.");
  return surgery;
}

export function addSurgeryProcedure(userId: number, surgeryId: number, input: ProcedureInput) {
  db.transaction((tx) => {
    requireSurgery(tx, surgeryId);
    const digits = input.code.replace(/\D/g, "");
    const code =
      tx.select().from(medicalCodes).where(and(eq(medicalCodes.type, "cbhpm"), eq(medicalCodes.code, cbhpmFormat(digits)))).get() ??
      tx.select().from(medicalCodes).where(and(eq(medicalCodes.type, "tuss"), eq(medicalCodes.code, digits))).get();
    if (!code) throw new SurgeryFeeError("Código não encontrado em Cadastros › Códigos (CBHPM ou TUSS).", "code");
    if (!code.porte) throw new SurgeryFeeError(`O código ${code.code} não tem porte CBHPM cadastrado.`, "code");
    const last = tx.select({ position: surgeryProcedures.position }).from(surgeryProcedures).where(eq(surgeryProcedures.surgeryId, surgeryId)).orderBy(desc(surgeryProcedures.position)).limit(1).get();
    if ((last?.position ?? 0) >= 20) throw new SurgeryFeeError("Uma cirurgia tem no máximo 20 procedimentos.", "code");
    const row = { surgeryId, medicalCodeId: code.id, position: (last?.position ?? 0) + 1, accessRoute: input.accessRoute, bilateral: input.bilateral };
    const { id } = tx.insert(surgeryProcedures).values(row).returning({ id: surgeryProcedures.id }).get();
    recordAudit(tx, { userId, action: "create", entity: "surgery_procedure", entityId: id, changes: { ...row, code: code.code } });
  });
}

export function removeSurgeryProcedure(userId: number, surgeryId: number, procedureId: number) {
  db.transaction((tx) => {
    const row = tx.select().from(surgeryProcedures).where(and(eq(surgeryProcedures.id, procedureId), eq(surgeryProcedures.surgeryId, surgeryId))).get();
    if (!row) throw new SurgeryFeeError("Procedimento não encontrado.");
    tx.delete(surgeryProcedures).where(eq(surgeryProcedures.id, procedureId)).run();
    recordAudit(tx, { userId, action: "delete", entity: "surgery_procedure", entityId: procedureId, changes: row });
  });
}

export function saveSurgeryTeam(userId: number, surgeryId: number, input: TeamInput) {
  db.transaction((tx) => {
    requireSurgery(tx, surgeryId);
    const ids = SURGERY_TEAM_ROLES.map((role) => input[role]).filter((id): id is number => id !== null);
    const known = new Set(tx.select({ id: doctors.id }).from(doctors).where(inArray(doctors.id, ids)).all().map((d) => d.id));
    for (const role of SURGERY_TEAM_ROLES) {
      const id = input[role];
      if (id !== null && !known.has(id)) throw new SurgeryFeeError("Médico não encontrado.", role);
    }
    const before = teamOf(tx, surgeryId);
    tx.delete(surgeryTeamMembers).where(eq(surgeryTeamMembers.surgeryId, surgeryId)).run();
    const rows = SURGERY_TEAM_ROLES.flatMap((role) => (input[role] ? [{ surgeryId, role, doctorId: input[role]! }] : []));
    if (rows.length) tx.insert(surgeryTeamMembers).values(rows).run();
    recordAudit(tx, { userId, action: "update", entity: "surgery_team", entityId: surgeryId, changes: { before, after: input } });
  });
}

export function saveFeeSettings(userId: number, surgeryId: number, input: FeeSettingsInput) {
  db.transaction((tx) => {
    requireSurgery(tx, surgeryId);
    const before = settingsOf(tx, surgeryId);
    tx.insert(surgeryFeeSettings)
      .values({ surgeryId, ...input })
      .onConflictDoUpdate({ target: surgeryFeeSettings.surgeryId, set: { ...input, updatedAt: new Date() } })
      .run();
    recordAudit(tx, { userId, action: "update", entity: "surgery_fee_settings", entityId: surgeryId, changes: { before: before && { accommodation: before.accommodation, urgency: before.urgency }, after: input } });
  });
}

/**
 * Computes the surgery's fee lines from its procedures, team and settings and the payer's rules
 * and porte table, replacing the lines it had (overrides included: the old lines go to the audit
 * log). An input the engine cannot price is a message for the screen, and nothing changes.
 */
export function recomputeSurgeryFees(userId: number, surgeryId: number) {
  return db.transaction((tx) => {
    const surgery = requireSurgery(tx, surgeryId);
    const settings = settingsOf(tx, surgeryId);
    const { rules, edition, band } = payerRulesOf(tx, surgery.payerId);
    const table = porteTableFor(tx, edition, band);
    if (!table) throw new SurgeryFeeError("Nenhuma tabela de portes CBHPM cadastrada para o convênio (Honorários › Tabelas).");
    const procedures: FeeProcedure[] = proceduresOf(tx, surgeryId).map((p) => ({
      codeId: p.codeId,
      code: p.code,
      porte: p.porte,
      assistantsCount: p.assistantsCount,
      anestheticPorte: p.anestheticPorte,
      route: p.accessRoute,
      bilateral: p.bilateral,
    }));
    const team = { ...teamOf(tx, surgeryId) };
    const { urgent } = urgencyOf(surgery, settings?.urgency ?? "auto", clinicHolidaySet(tx));
    let result: ReturnType<typeof computeFeeLines>;
    try {
      result = computeFeeLines({
        procedures,
        team: {
          surgeonId: team.cirurgiao ?? surgery.doctorId,
          assistantIds: [team.auxiliar_1 ?? null, team.auxiliar_2 ?? null, team.auxiliar_3 ?? null, team.auxiliar_4 ?? null],
          anesthetistId: team.anestesista ?? null,
        },
        rules,
        porteValues: table.values,
        accommodation: settings?.accommodation ?? "enfermaria",
        urgent,
      });
    } catch (error) {
      if (error instanceof FeeEngineError) throw new SurgeryFeeError(error.message);
      throw error;
    }
    const before = tx.select().from(surgeryFeeLines).where(eq(surgeryFeeLines.surgeryId, surgeryId)).all();
    tx.delete(surgeryFeeLines).where(eq(surgeryFeeLines.surgeryId, surgeryId)).run();
    const now = new Date();
    const rows = result.lines.map((line) => ({
      surgeryId,
      doctorId: line.doctorId,
      role: line.role,
      medicalCodeId: line.codeId,
      amountCents: line.amountCents,
      computedCents: line.amountCents,
      serviceDate: surgery.scheduledDate,
      position: line.position,
      porte: line.porte,
      anestheticPorte: line.anestheticPorte,
      porteValueCents: line.porteValueCents,
      procedurePercent: line.procedurePercent,
      sharePercent: line.sharePercent,
      accommodationFactor: line.accommodationFactor,
      urgencyPercent: line.urgencyPercent,
      contralateral: line.contralateral,
    }));
    for (let i = 0; i < rows.length; i += 100) tx.insert(surgeryFeeLines).values(rows.slice(i, i + 100)).run();
    tx.insert(surgeryFeeSettings)
      .values({ surgeryId, computedAt: now, computedBy: userId })
      .onConflictDoUpdate({ target: surgeryFeeSettings.surgeryId, set: { computedAt: now, computedBy: userId, updatedAt: now } })
      .run();
    const total = rows.reduce((sum, r) => sum + r.amountCents, 0);
    recordAudit(tx, {
      userId,
      action: "update",
      entity: "surgery_fees",
      entityId: surgeryId,
      changes: { edition: table.edition, band: table.band, urgent, lines: rows.length, totalCents: total, replaced: before.map((l) => ({ id: l.id, doctorId: l.doctorId, role: l.role, amountCents: l.amountCents, overrideReason: l.overrideReason })) },
    });
    return { lines: rows.length, totalCents: total, warnings: result.warnings };
  });
}

function lineOf(tx: Tx, surgeryId: number, lineId: number) {
  const line = tx.select().from(surgeryFeeLines).where(and(eq(surgeryFeeLines.id, lineId), eq(surgeryFeeLines.surgeryId, surgeryId))).get();
  if (!line) throw new SurgeryFeeError("Linha de honorário não encontrada.");
  return line;
}

/** Pays a line a different amount, with the reason kept on the line and in the audit log. */
export function overrideFeeLine(userId: number, surgeryId: number, input: FeeOverrideInput) {
  db.transaction((tx) => {
    const line = lineOf(tx, surgeryId, input.lineId);
    const now = new Date();
    tx.update(surgeryFeeLines)
      .set({ amountCents: input.amount, overrideReason: input.reason, overriddenBy: userId, overriddenAt: now, updatedAt: now })
      .where(eq(surgeryFeeLines.id, line.id))
      .run();
    recordAudit(tx, { userId, action: "update", entity: "surgery_fee_line", entityId: line.id, changes: { amountCents: [line.amountCents, input.amount], reason: input.reason } });
  });
}

/** Back to the computed amount (a line without one, from before the engine, cannot be restored). */
export function restoreFeeLine(userId: number, surgeryId: number, lineId: number) {
  db.transaction((tx) => {
    const line = lineOf(tx, surgeryId, lineId);
    if (line.computedCents === null) throw new SurgeryFeeError("Esta linha não foi calculada pelo sistema: recalcule os honorários.");
    tx.update(surgeryFeeLines)
      .set({ amountCents: line.computedCents, overrideReason: null, overriddenBy: null, overriddenAt: null, updatedAt: new Date() })
      .where(eq(surgeryFeeLines.id, line.id))
      .run();
    recordAudit(tx, { userId, action: "update", entity: "surgery_fee_line", entityId: line.id, changes: { amountCents: [line.amountCents, line.computedCents], reason: null } });
  });
}

/** Lines not yet computed by the engine, e.g. for a notice on the screen. */
export function hasLegacyLines(surgeryId: number) {
  return !!db.select({ id: surgeryFeeLines.id }).from(surgeryFeeLines).where(and(eq(surgeryFeeLines.surgeryId, surgeryId), isNull(surgeryFeeLines.computedCents))).limit(1).get();
}
