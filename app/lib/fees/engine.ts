import type { FeeLineRole } from "../enums";
import { ANESTHETIC_PORTE_EQUIVALENT, DEFAULT_ANESTHETIC_PORTE, type Porte, porteRank } from "./porte";

/**
 * The CBHPM fee engine (DOMAIN.md §1): from a surgery's procedures, team, accommodation and
 * urgency, and the payer's rules and porte values, one fee line per professional per act, each
 * carrying how it was computed. Pure: no database, no clock.
 *
 * - Surgeon: the procedure of highest porte at 100 %, every other one at the payer's same-route
 *   (50 %) or different-route (70 %) share (items 4.1, 4.2); a bilateral procedure adds its other
 *   side at the same shares (4.3: same incision 50 %, different incisions 70 %).
 * - Assistants: as many as the highest-porte procedure sets (5.2), the k-th paid the payer's k-th
 *   share (60/40/30/30 by default, 5.1) of the surgeon's line of each act, so of the surgeon's total.
 * - Anaesthetist: each act's porte anestésico valued as its equivalent porte (AN1 = 3A … AN8 = 12A;
 *   none set: porte 3; AN0: no anaesthetist), the highest at 100 % and the others at the same shares.
 * - Apartment doubles every porte (6.2); urgency adds the payer's surcharge (30 %, 2.1) on all.
 * Amounts are integer cents, each line rounded once (half up).
 */

export type AccessRoute = "same" | "different";
export type Accommodation = "enfermaria" | "apartamento";

export interface FeeProcedure {
  /** medical_codes.id */
  codeId: number;
  code: string;
  porte: Porte | null;
  /** Nº de auxiliares the CBHPM sets for the procedure (null: not set). */
  assistantsCount: number | null;
  /** Porte anestésico 0..8 (null: not set → porte 3). */
  anestheticPorte: number | null;
  /** Access route relative to the principal procedure (for a bilateral one: same or different incision). */
  route: AccessRoute;
  bilateral: boolean;
}

export interface FeeTeam {
  surgeonId: number | null;
  /** 1st..4th assistant (null where nobody is named). */
  assistantIds: readonly (number | null)[];
  anesthetistId: number | null;
}

export interface PayerFeeRules {
  /** Share of the surgeon's fee for the 1st..4th assistant, whole percent. */
  assistantPercents: readonly [number, number, number, number];
  multipleSameRoutePercent: number;
  multipleOtherRoutePercent: number;
  urgencySurchargePercent: number;
}

export const DEFAULT_FEE_RULES: PayerFeeRules = {
  assistantPercents: [60, 40, 30, 30],
  multipleSameRoutePercent: 50,
  multipleOtherRoutePercent: 70,
  urgencySurchargePercent: 30,
};

export interface FeeInput {
  procedures: readonly FeeProcedure[];
  team: FeeTeam;
  rules: PayerFeeRules;
  /** Value in cents of each porte in the payer's table ('10A' → 185475). */
  porteValues: Readonly<Record<Porte, number>>;
  accommodation: Accommodation;
  urgent: boolean;
}

export interface FeeLine {
  doctorId: number;
  role: FeeLineRole;
  /** 1..4 for an assistant, null otherwise. */
  position: number | null;
  codeId: number;
  code: string;
  /** The porte valued: the procedure's, or for the anaesthetist the equivalent of the porte anestésico ('9B'). */
  porte: Porte;
  /** The porte anestésico behind an anaesthetist's line (1..8), null otherwise. */
  anestheticPorte: number | null;
  porteValueCents: number;
  /** The act's share: 100 for the principal act, the same/other-route share for the others. */
  procedurePercent: number;
  /** An assistant's share of the surgeon's line, null for the others. */
  sharePercent: number | null;
  /** 2 in an apartment, 1 in a ward. */
  accommodationFactor: 1 | 2;
  /** The urgency surcharge applied (0 when not urgent). */
  urgencyPercent: number;
  /** The other side of a bilateral procedure. */
  contralateral: boolean;
  amountCents: number;
}

export class FeeEngineError extends Error {}

interface Act {
  procedure: FeeProcedure;
  contralateral: boolean;
}

/** Acts in order: each procedure, then (bilateral) its other side. */
function actsOf(procedures: readonly FeeProcedure[]): Act[] {
  return procedures.flatMap((procedure) => [{ procedure, contralateral: false }, ...(procedure.bilateral ? [{ procedure, contralateral: true }] : [])]);
}

/** The act paid in full: the highest by `rank`, the first listed on a tie. */
function principalOf(acts: Act[], rank: (act: Act) => number): Act {
  return acts.reduce((best, act) => (rank(act) > rank(best) ? act : best), acts[0]);
}

function shareOf(act: Act, principal: Act, rules: PayerFeeRules): number {
  if (act === principal) return 100;
  return act.procedure.route === "same" ? rules.multipleSameRoutePercent : rules.multipleOtherRoutePercent;
}

/** value × act share × accommodation × (100 + urgency) %, rounded half up to the cent. */
function actAmount(valueCents: number, percent: number, factor: number, urgencyPercent: number): number {
  return Math.round((valueCents * percent * factor * (100 + urgencyPercent)) / 10_000);
}

function valueOf(porteValues: FeeInput["porteValues"], porte: Porte, missing: Set<string>): number {
  const value = porteValues[porte];
  if (value === undefined) missing.add(porte);
  return value ?? 0;
}

export function computeFeeLines(input: FeeInput): { lines: FeeLine[]; assistantsAllowed: number; warnings: string[] } {
  const { procedures, team, rules, porteValues } = input;
  if (!procedures.length) throw new FeeEngineError("Informe ao menos um procedimento.");
  const unported = procedures.filter((p) => porteRank(p.porte) < 0);
  if (unported.length) throw new FeeEngineError(`Procedimento sem porte CBHPM: ${unported.map((p) => p.code).join(", ")}.`);
  if (!team.surgeonId) throw new FeeEngineError("Informe o cirurgião da equipe.");

  const factor: 1 | 2 = input.accommodation === "apartamento" ? 2 : 1;
  const urgencyPercent = input.urgent ? rules.urgencySurchargePercent : 0;
  const missing = new Set<string>();
  const warnings: string[] = [];
  const acts = actsOf(procedures);
  const principal = principalOf(acts, (act) => porteRank(act.procedure.porte));
  const lines: FeeLine[] = [];

  const surgeonLines = acts.map((act) => {
    const porte = act.procedure.porte!;
    const porteValueCents = valueOf(porteValues, porte, missing);
    const procedurePercent = shareOf(act, principal, rules);
    const line: FeeLine = {
      doctorId: team.surgeonId!,
      role: "principal",
      position: null,
      codeId: act.procedure.codeId,
      code: act.procedure.code,
      porte,
      anestheticPorte: null,
      porteValueCents,
      procedurePercent,
      sharePercent: null,
      accommodationFactor: factor,
      urgencyPercent,
      contralateral: act.contralateral,
      amountCents: actAmount(porteValueCents, procedurePercent, factor, urgencyPercent),
    };
    return line;
  });
  lines.push(...surgeonLines);

  const assistantsAllowed = Math.min(4, Math.max(0, principal.procedure.assistantsCount ?? team.assistantIds.filter(Boolean).length));
  team.assistantIds.slice(0, 4).forEach((doctorId, index) => {
    if (!doctorId) return;
    const position = index + 1;
    if (position > assistantsAllowed) {
      warnings.push(`O procedimento principal (${principal.procedure.code}) prevê ${assistantsAllowed} auxiliar(es): o ${position}º auxiliar não é remunerado.`);
      return;
    }
    const sharePercent = rules.assistantPercents[index];
    for (const surgeon of surgeonLines) {
      lines.push({ ...surgeon, doctorId, role: "auxiliar", position, sharePercent, amountCents: Math.round((surgeon.amountCents * sharePercent) / 100) });
    }
  });

  if (team.anesthetistId) {
    const anestheticPorteOf = (act: Act) => act.procedure.anestheticPorte ?? DEFAULT_ANESTHETIC_PORTE;
    const anaesthetised = acts.filter((act) => anestheticPorteOf(act) > 0);
    if (!anaesthetised.length) warnings.push("Nenhum procedimento tem porte anestésico: o anestesista não é remunerado por eles.");
    else {
      const anaesthesiaPrincipal = principalOf(anaesthetised, anestheticPorteOf);
      for (const act of anaesthetised) {
        const anestheticPorte = Math.min(8, anestheticPorteOf(act));
        const porte = ANESTHETIC_PORTE_EQUIVALENT[anestheticPorte];
        const porteValueCents = valueOf(porteValues, porte, missing);
        const procedurePercent = shareOf(act, anaesthesiaPrincipal, rules);
        lines.push({
          doctorId: team.anesthetistId,
          role: "anestesista",
          position: null,
          codeId: act.procedure.codeId,
          code: act.procedure.code,
          porte,
          anestheticPorte,
          porteValueCents,
          procedurePercent,
          sharePercent: null,
          accommodationFactor: factor,
          urgencyPercent,
          contralateral: act.contralateral,
          amountCents: actAmount(porteValueCents, procedurePercent, factor, urgencyPercent),
        });
      }
    }
  }

  if (missing.size) {
    throw new FeeEngineError(`A tabela de portes do convênio não tem valor para: ${[...missing].sort((a, b) => porteRank(a) - porteRank(b)).join(", ")}.`);
  }
  return { lines, assistantsAllowed, warnings };
}

/** How a line was computed, in words: 'Porte 10A (R$ 1.854,75) × 100% × 2 (apartamento) + 30% (urgência)'. */
export function feeLineBasis(
  line: Pick<FeeLine, "porte" | "anestheticPorte" | "porteValueCents" | "procedurePercent" | "sharePercent" | "accommodationFactor" | "urgencyPercent" | "contralateral">,
  formatCents: (cents: number) => string,
): string {
  const porte = line.anestheticPorte ? `AN${line.anestheticPorte} = porte ${line.porte}` : `Porte ${line.porte}`;
  const parts = [`${porte} (${formatCents(line.porteValueCents)})`, `× ${line.procedurePercent}%${line.contralateral ? " (lado contralateral)" : ""}`];
  if (line.accommodationFactor === 2) parts.push("× 2 (apartamento)");
  if (line.urgencyPercent) parts.push(`+ ${line.urgencyPercent}% (urgência)`);
  if (line.sharePercent !== null) parts.push(`→ ${line.sharePercent}% do cirurgião`);
  return parts.join(" ");
}
