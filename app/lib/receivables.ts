/**
 * Receivables (Cirurgias a receber / pagas): the allowed moves of a surgery's billing state, the
 * lists' URL state and the labels. Browser-safe: the page shows exactly the moves the server accepts.
 * docs/decisions/0019-receivables-glosas-and-tiss.md
 */
import { RECEIVABLE_STATUSES, type ReceivableStatus } from "./enums";
import { type FilterValues, defineList, idFilter, oneOfFilter } from "./list-params";

export { RECEIVABLE_STATUSES, RECEIVABLE_STATUS_LABELS, type ReceivableStatus } from "./enums";

/**
 * SPEC §4 and issue 11: realizado → faturado; faturado → pendente, glosa or pago; pendente →
 * glosa or pago; glosa → pago (recovered on appeal). Nothing moves backwards; a mistaken billing
 * is undone only by an admin's 'reabrir' (REOPENABLE), which is logged with its reason.
 */
export const RECEIVABLE_MOVES: Record<ReceivableStatus, readonly ReceivableStatus[]> = {
  realizado: ["faturado"],
  faturado: ["pendente", "glosa", "pago"],
  pendente: ["glosa", "pago"],
  glosa: ["pago"],
  pago: [],
};

export function canMoveReceivable(from: string | null | undefined, to: string): boolean {
  if (!from || !(RECEIVABLE_STATUSES as readonly string[]).includes(from)) return false;
  return (RECEIVABLE_MOVES[from as ReceivableStatus] as readonly string[]).includes(to);
}

/** Billed, with no money or glosa recorded yet: what an admin may reopen back to 'realizado'. */
export const REOPENABLE_STATUSES = ["faturado", "pendente"] as const satisfies readonly ReceivableStatus[];
/** Removable from the receivables (no payment or glosa recorded): 'excluir' on the list. */
export const REMOVABLE_STATUSES = ["realizado", "faturado", "pendente"] as const satisfies readonly ReceivableStatus[];

/** How a receivable's history row came about. */
export const RECEIVABLE_MOVE_KINDS = ["concluded", "move", "reopen", "remove", "import"] as const;
export type ReceivableMoveKind = (typeof RECEIVABLE_MOVE_KINDS)[number];
export const RECEIVABLE_MOVE_KIND_LABELS: Record<ReceivableMoveKind, string> = {
  concluded: "Cirurgia concluída",
  move: "Mudança de status",
  reopen: "Reaberto",
  remove: "Excluído dos recebíveis",
  import: "Importação de demonstrativo",
};

/** An appeal's outcome: all recovered, part of it, nothing. */
export const GLOSA_APPEAL_OUTCOMES = ["deferido", "parcial", "indeferido"] as const;
export type GlosaAppealOutcome = (typeof GLOSA_APPEAL_OUTCOMES)[number];
export const GLOSA_APPEAL_OUTCOME_LABELS: Record<GlosaAppealOutcome, string> = {
  deferido: "Deferido (recuperado)",
  parcial: "Parcialmente deferido",
  indeferido: "Indeferido (perdido)",
};

/** TISS schema versions whose Guia de Honorários we emit and validate (XSDs in app/.server/tiss/). */
export const TISS_VERSIONS = ["4.01.00"] as const;
export type TissVersion = (typeof TISS_VERSIONS)[number];

/** A calendar date filter ('YYYY-MM-DD' that exists). */
function calendarDate(raw: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]) ? raw : null;
}

/** /financeiro/cirurgias-receber: by surgery date, newest first; search, status and payer in the URL. */
export const RECEIVABLE_LIST = defineList({
  sorts: ["scheduledDate"] as const,
  defaultSort: "scheduledDate",
  defaultDir: "desc",
  filters: { status: oneOfFilter("status", RECEIVABLE_STATUSES), payerId: idFilter("payer") },
});
export type ReceivableFilters = FilterValues<NonNullable<(typeof RECEIVABLE_LIST)["filters"]>>;

/** /financeiro/cirurgias-pagas: by the day paid, newest first; a date range and the payer. */
export const PAID_LIST = defineList({
  sorts: ["paidAt"] as const,
  defaultSort: "paidAt",
  defaultDir: "desc",
  filters: {
    payerId: idFilter("payer"),
    from: { param: "from", parse: calendarDate },
    to: { param: "to", parse: calendarDate },
  },
});
export type PaidFilters = FilterValues<NonNullable<(typeof PAID_LIST)["filters"]>>;

/** The toasts of SPEC §8. */
export const RECEIVABLE_MESSAGES = {
  billed: "Status atualizado para Faturado",
  moved: "Status atualizado",
  deleted: "Registro excluído com sucesso",
  reopened: "Recebível reaberto",
  imported: "Importação concluída com sucesso!",
  importFailed: "Erro ao processar arquivo",
  fileType: "Apenas arquivos PDF ou imagens são permitidos",
} as const;
