/**
 * The ten stages of the surgery pipeline board (SPEC §4), in board order.
 * Pure data: safe to import from the browser, the server and the Drizzle schema.
 */
export const PIPELINE_STAGE_IDS = [
  "aguarda_docs",
  "enviado_pre_aut",
  "aguardando_parecer",
  "opme_cotacao",
  "aprovado",
  "negado",
  "agendado",
  "em_cirurgia",
  "concluido",
  "cancelado",
] as const;

export type PipelineStage = (typeof PIPELINE_STAGE_IDS)[number];

export const PIPELINE_STAGE_LABELS: Record<PipelineStage, string> = {
  aguarda_docs: "Aguarda Docs",
  enviado_pre_aut: "Enviado Pré-aut",
  aguardando_parecer: "Aguardando Parecer",
  opme_cotacao: "OPME em Cotação",
  aprovado: "Aprovado",
  negado: "Negado",
  agendado: "Agendado",
  em_cirurgia: "Em Cirurgia",
  concluido: "Concluído",
  cancelado: "Cancelado",
};

export const PIPELINE_STAGES: ReadonlyArray<{ id: PipelineStage; label: string }> = PIPELINE_STAGE_IDS.map((id) => ({
  id,
  label: PIPELINE_STAGE_LABELS[id],
}));

/** The stage a new surgery starts in. */
export const INITIAL_PIPELINE_STAGE: PipelineStage = "aguarda_docs";

export function isPipelineStage(value: unknown): value is PipelineStage {
  return typeof value === "string" && (PIPELINE_STAGE_IDS as readonly string[]).includes(value);
}

/** Portuguese label of a stage id; unknown ids are returned unchanged so bad data stays visible. */
export function stageLabel(id: string | null | undefined): string {
  if (!id) return "";
  return isPipelineStage(id) ? PIPELINE_STAGE_LABELS[id] : id;
}

/**
 * The surgery `status` (scheduled | completed | cancelled) that goes with a pipeline stage.
 * SPEC §4 says a move "sets both current_stage and status"; the status column keeps its own
 * three values, so a move writes the status this function derives from the new stage.
 * 'negado' stays scheduled: a denied authorisation is usually appealed, not dropped.
 */
export function surgeryStatusForStage(stage: PipelineStage): "scheduled" | "completed" | "cancelled" {
  if (stage === "concluido") return "completed";
  if (stage === "cancelado") return "cancelled";
  return "scheduled";
}

/** Longest denial reason kept with a move to 'Negado' (a payer's letter is summarised, not pasted whole). */
export const DENIAL_REASON_MAX = 2000;

/** A stage checklist's size limits (the settings screen and its schema). */
export const CHECKLIST_MAX_ITEMS = 30;
export const CHECKLIST_ITEM_MAX = 200;
