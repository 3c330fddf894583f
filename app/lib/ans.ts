import type { PipelineStage } from "./pipeline";

/**
 * The two ANS clocks of an elective surgery request (DOMAIN.md §2), both started when the
 * pre-authorisation is sent to the payer (the move to 'Enviado Pré-aut'):
 * - RN 623/2024: the payer answers within 10 business days (PAC and internação eletiva);
 * - RN 566/2022: the procedure happens within 21 business days of the request.
 * While the answer is pending the first clock applies; once approved, the second.
 */
export const ANS_RESPONSE_BUSINESS_DAYS = 10;
export const ANS_PROCEDURE_BUSINESS_DAYS = 21;
/** A clock turns amber in its last days. */
export const ANS_WARNING_BUSINESS_DAYS = 2;

export type AnsClock = "resposta" | "realizacao";

const RESPONSE_STAGES: readonly PipelineStage[] = ["enviado_pre_aut", "aguardando_parecer", "opme_cotacao"];
const PROCEDURE_STAGES: readonly PipelineStage[] = ["aprovado", "agendado"];

export const ANS_CLOCK_LABELS: Record<AnsClock, string> = {
  resposta: "Resposta do convênio (RN 623)",
  realizacao: "Realização (RN 566)",
};

export function ansClockFor(stage: PipelineStage): AnsClock | null {
  if (RESPONSE_STAGES.includes(stage)) return "resposta";
  if (PROCEDURE_STAGES.includes(stage)) return "realizacao";
  return null;
}

export type AnsTone = "ok" | "warning" | "overdue";

export interface AnsState {
  clock: AnsClock;
  dueOn: string;
  /** Business days left after today up to the last day; negative when overdue. */
  daysLeft: number;
  tone: AnsTone;
}

/** 'ANS: 3 dias úteis', 'ANS: vence hoje', 'ANS: atrasada 2 dias úteis'. */
export function ansText(state: AnsState): string {
  if (state.tone === "overdue") {
    const late = Math.max(1, -state.daysLeft);
    return `ANS: atrasada ${late} ${late === 1 ? "dia útil" : "dias úteis"}`;
  }
  if (state.daysLeft === 0) return "ANS: vence hoje";
  return `ANS: ${state.daysLeft} ${state.daysLeft === 1 ? "dia útil" : "dias úteis"}`;
}
