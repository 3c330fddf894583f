/**
 * Fee statements (/financeiro/importar-honorarios): the CSV columns a statement has, what a line
 * does to its receivable, and the screen's messages. Browser-safe; the parser, the matching and the
 * import live in app/models/fee-statement*.server.ts. docs/decisions/0019-receivables-glosas-and-tiss.md
 */

import { defineList } from "./list-params";

/** One column of a fee statement CSV: its header (accents and case do not matter) and other names it goes by. */
export interface StatementColumn {
  key: StatementField;
  header: string;
  aliases: readonly string[];
  required: boolean;
  help: string;
}

export type StatementField = "guide" | "patient" | "code" | "date" | "amount" | "payer" | "paidOn" | "glosaCode" | "glosaReason";

export const STATEMENT_COLUMNS: readonly StatementColumn[] = [
  { key: "guide", header: "Guia", aliases: ["número da guia", "numero da guia", "nº guia", "n guia", "guia prestador"], required: true, help: "Número da guia (pode ficar vazio: a linha é então achada por paciente, data e pagador)." },
  { key: "patient", header: "Paciente", aliases: ["beneficiário", "beneficiario", "nome do paciente"], required: true, help: "Nome do paciente, como no cadastro." },
  { key: "code", header: "Código", aliases: ["código tuss", "codigo tuss", "procedimento", "código do procedimento"], required: true, help: "Código TUSS/CBHPM do procedimento (informativo)." },
  { key: "date", header: "Data", aliases: ["data da cirurgia", "data do atendimento", "data de realização", "data realizacao"], required: true, help: "Data da cirurgia, dd/mm/aaaa." },
  { key: "amount", header: "Valor", aliases: ["valor pago", "valor liberado", "valor (r$)"], required: true, help: "Valor pago em reais, como 1.234,56." },
  { key: "payer", header: "Pagador", aliases: ["convênio", "convenio", "operadora"], required: true, help: "Convênio ou pagador, como no cadastro." },
  { key: "paidOn", header: "Data do pagamento", aliases: ["pago em", "data pagamento"], required: false, help: "Opcional, dd/mm/aaaa; sem ela, a data da importação." },
  { key: "glosaCode", header: "Código da glosa", aliases: ["código glosa", "codigo glosa", "glosa"], required: false, help: "Opcional: código TISS da glosa (4 dígitos), obrigatório quando o valor pago é menor que o devido." },
  { key: "glosaReason", header: "Motivo da glosa", aliases: ["motivo glosa", "descrição da glosa", "descricao da glosa"], required: false, help: "Opcional: o motivo da glosa, obrigatório com o código." },
];

/** A statement file (PDF, image or CSV) is at most 20 MB, enforced while it streams in. */
export const STATEMENT_MAX_MB = 20;
export const STATEMENT_MAX_BYTES = STATEMENT_MAX_MB * 1024 * 1024;

/** At most this many lines per statement: it is applied in one transaction. */
export const MAX_STATEMENT_LINES = 5_000;

/** What a line does to its receivable once applied. */
export type LineOutcome = "pago" | "parcial" | "recurso";

export const LINE_OUTCOME_LABELS: Record<LineOutcome, string> = {
  pago: "Pago integral",
  parcial: "Pagamento parcial: a diferença vira glosa",
  recurso: "Recurso de glosa: valor recuperado",
};

export const IMPORT_MESSAGES = {
  success: "Importação concluída com sucesso!",
  failure: "Erro ao processar arquivo",
  duplicate: "Este arquivo já foi importado (mesmo conteúdo).",
  notCsv: "Envie o demonstrativo em CSV (texto separado por ';' ou ',').",
  expired: "A pré-visualização expirou ou já foi aplicada. Envie o arquivo de novo.",
  fileStored: "Arquivo enviado com sucesso!",
} as const;

/**
 * A refused upload, for the page without JavaScript (where no toast is drawn): the upload route
 * redirects with `?erro=<code>` and the page shows the message. Fixed codes, never free text in the URL.
 */
export const UPLOAD_ERROR_MESSAGES = {
  tipo: "Apenas arquivos PDF ou imagens são permitidos",
  tamanho: `O arquivo passa do limite de ${STATEMENT_MAX_MB} MB.`,
  csv: IMPORT_MESSAGES.notCsv,
  duplicado: IMPORT_MESSAGES.duplicate,
  faltando: "Escolha o arquivo a enviar.",
  envio: "Não foi possível ler o arquivo enviado. Tente novamente.",
} as const;
export type UploadErrorCode = keyof typeof UPLOAD_ERROR_MESSAGES;

export function uploadErrorCode(message: string): UploadErrorCode {
  const found = Object.entries(UPLOAD_ERROR_MESSAGES).find(([, text]) => text === message);
  return (found?.[0] as UploadErrorCode | undefined) ?? "envio";
}

export const IMPORT_KIND_LABELS = { arquivo: "Arquivo", csv: "CSV aplicado" } as const;

/** What was received, newest first (the page's list). */
export const FEE_IMPORT_LIST = defineList({ sorts: ["uploadedAt"] as const, defaultSort: "uploadedAt", defaultDir: "desc" });
