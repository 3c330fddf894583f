import * as schema from "../schema";
import { PORTES, porteTableVersion } from "../../app/lib/fees/porte";
import { cbhpmCode } from "./catalog";
import { insertRows, type SeedContext } from "./context";
import type { MasterData } from "./master-data";
import type { SurgeryBook } from "./surgeries";

/**
 * CBHPM 'Original' column in force Oct/2025–Sep/2026 (DOMAIN.md §1, Comunicado AMB of 18/10/2025),
 * in cents: the portes the DOMAIN lists. The others are interpolated between them for the demo
 * (geometric, by position in the scale) and are not the official table.
 */
const ORIGINAL_2022: Record<string, number> = {
  "1A": 2_674,
  "3A": 22_807,
  "3C": 33_381,
  "4C": 49_133,
  "6B": 72_640,
  "7C": 112_365,
  "9B": 156_797,
  "9C": 172_781,
  "10A": 185_475,
  "10B": 200_991,
  "10C": 223_089,
  "12A": 294_318,
  "12B": 316_415,
  "12C": 387_643,
  "14A": 576_881,
  "14C": 692_236,
};

/** Every porte 1A..14C: the listed values, the gaps filled geometrically between neighbours. */
export function demoPorteValues(): Record<string, number> {
  const anchors = PORTES.map((porte, rank) => [rank, ORIGINAL_2022[porte]] as const).filter(([, value]) => value !== undefined);
  const values: Record<string, number> = {};
  PORTES.forEach((porte, rank) => {
    if (ORIGINAL_2022[porte] !== undefined) return void (values[porte] = ORIGINAL_2022[porte]);
    const below = [...anchors].reverse().find(([r]) => r < rank)!;
    const above = anchors.find(([r]) => r > rank)!;
    const t = (rank - below[0]) / (above[0] - below[0]);
    values[porte] = Math.round(below[1] * (above[1] / below[1]) ** t);
  });
  return values;
}

/** Band I of the demo: 10 % under the original column (bands float within ±20 %, DOMAIN.md §1). */
const FAIXA_1_FACTOR = 0.9;

/** The CBHPM 2022 porte tables the demo payers pay by: 'Original' and 'Faixa I' (Unimed). */
export function seedPorteTables({ tx }: SeedContext) {
  const original = demoPorteValues();
  const rows: Array<typeof schema.referenceFeeSchedules.$inferInsert> = [];
  for (const porte of PORTES) {
    rows.push({ kind: "CBHPM", year: 2022, version: porteTableVersion("original"), code: porte, description: `Porte ${porte}`, baseValueCents: original[porte] });
    rows.push({ kind: "CBHPM", year: 2022, version: porteTableVersion("faixa_1"), code: porte, description: `Porte ${porte}`, baseValueCents: Math.round(original[porte] * FAIXA_1_FACTOR) });
  }
  insertRows(tx, schema.referenceFeeSchedules, rows);
}

/**
 * What the fee engine prices the performed surgeries from: each one's procedure (its CBHPM code),
 * its team (from the fee lines the surgery already has) and its accommodation (apartment for
 * private patients and one in three others, by id: no draw from `random`, so the rest of the demo
 * stays as it was; urgency derived from the time).
 */
export function seedSurgeryFeeInputs({ tx }: SeedContext, { codeIdByKey }: MasterData, { feePlans, surgeryId }: SurgeryBook) {
  const procedures: Array<typeof schema.surgeryProcedures.$inferInsert> = [];
  const team: Array<typeof schema.surgeryTeamMembers.$inferInsert> = [];
  const settings: Array<typeof schema.surgeryFeeSettings.$inferInsert> = [];
  for (const [s, plan] of feePlans) {
    const id = surgeryId.get(s)!;
    const codeId = codeIdByKey.get(`cbhpm:${cbhpmCode(s.type.tuss)}`);
    if (codeId) procedures.push({ surgeryId: id, medicalCodeId: codeId, position: 1, accessRoute: "same", bilateral: false });
    const surgeon = plan.lines.find((l) => l.role === "principal");
    const assistant = plan.lines.find((l) => l.role === "auxiliar");
    const anaesthetist = plan.lines.find((l) => l.role === "anestesista");
    if (surgeon) team.push({ surgeryId: id, role: "cirurgiao", doctorId: surgeon.doctorId });
    if (assistant) team.push({ surgeryId: id, role: "auxiliar_1", doctorId: assistant.doctorId });
    if (anaesthetist) team.push({ surgeryId: id, role: "anestesista", doctorId: anaesthetist.doctorId });
    settings.push({ surgeryId: id, accommodation: s.payer === "Particular" || id % 3 === 0 ? "apartamento" : "enfermaria", urgency: "auto" });
  }
  for (let i = 0; i < procedures.length; i += 200) tx.insert(schema.surgeryProcedures).values(procedures.slice(i, i + 200)).run();
  for (let i = 0; i < team.length; i += 200) tx.insert(schema.surgeryTeamMembers).values(team.slice(i, i + 200)).run();
  for (let i = 0; i < settings.length; i += 200) tx.insert(schema.surgeryFeeSettings).values(settings.slice(i, i + 200)).run();
}
