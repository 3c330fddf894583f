import Papa from "papaparse";
import type { z } from "zod";
import { db } from "~/.server/db";
import type { CsvColumn } from "~/.server/csv-export";
import { type CsvCell } from "~/lib/csv";
import { formatCnpj, formatPhone } from "~/lib/documents";
import {
  CBHPM_BAND_LABELS,
  HOSPITAL_TYPE_LABELS,
  MEDICAL_CODE_TYPE_LABELS,
  PAYER_TYPE_LABELS,
  SUPPLIER_TYPE_LABELS,
  labelFor,
} from "~/lib/enums";
import type { MasterDataTab } from "~/lib/master-data-tabs";
import { normalizeSearch } from "~/lib/search";
import { hospitalSchema, medicalCodeSchema, payerSchema, supplierSchema } from "~/validation/master-data";
import { createHospital } from "./hospital.server";
import { DomainError } from "~/.server/domain-error";
import { createMedicalCode } from "./medical-code.server";
import { createPayer } from "./payer.server";
import { createSupplier } from "./supplier.server";

/**
 * Cadastros as CSV: the columns each tab exports, which are also the columns its import reads
 * (a file exported, edited in Excel and imported back round-trips). An import is all or nothing:
 * every line is validated first, the errors are reported by line, and only a file without any is
 * written, in one transaction.
 */

/** One CSV column: its header, the cell it exports, and the form field its cell imports into. */
interface Column<Row> extends CsvColumn<Row> {
  field: string;
  /** Stored value → label on export is undone on import: label (or value) → stored value. */
  labels?: Record<string, string>;
  boolean?: boolean;
}

const active = <Row extends { active: boolean }>(): Column<Row> => ({
  header: "Status",
  field: "active",
  boolean: true,
  value: (row) => (row.active ? "Ativo" : "Inativo"),
});

type PayerCsv = ReturnType<typeof import("./payer.server").payerExport>["query"] extends { all(): Array<infer R> } ? R : never;
type HospitalCsv = ReturnType<typeof import("./hospital.server").hospitalExport>["query"] extends { all(): Array<infer R> } ? R : never;
type SupplierCsv = ReturnType<typeof import("./supplier.server").supplierExport>["query"] extends { all(): Array<infer R> } ? R : never;
type CodeCsv = ReturnType<typeof import("./medical-code.server").medicalCodeExport>["query"] extends { all(): Array<infer R> } ? R : never;

const text = <Row,>(header: string, field: keyof Row & string, format?: (value: string) => string): Column<Row> => ({
  header,
  field,
  value: (row) => {
    const value = row[field] as unknown as string | null;
    return value ? (format ? format(value) : value) : null;
  },
});
const number = <Row,>(header: string, field: keyof Row & string): Column<Row> => ({ header, field, value: (row) => row[field] as unknown as CsvCell });
const labelled = <Row,>(header: string, field: keyof Row & string, labels: Record<string, string>): Column<Row> => ({
  header,
  field,
  labels,
  value: (row) => labelFor(labels, row[field] as unknown as string),
});

export const CSV_COLUMNS = {
  payers: [
    text<PayerCsv>("Nome", "name"),
    labelled<PayerCsv>("Tipo", "type", PAYER_TYPE_LABELS),
    text<PayerCsv>("CNPJ", "cnpj", formatCnpj),
    text<PayerCsv>("Registro ANS", "ansRegistration"),
    text<PayerCsv>("E-mail", "contactEmail"),
    text<PayerCsv>("Telefone", "contactPhone", formatPhone),
    number<PayerCsv>("Prazo de pagamento (dias)", "paymentTermsDays"),
    number<PayerCsv>("Cobertura (%)", "coveragePercentage"),
    number<PayerCsv>("1º auxiliar (%)", "assistant1FeePercent"),
    number<PayerCsv>("2º auxiliar (%)", "assistant2FeePercent"),
    number<PayerCsv>("3º auxiliar (%)", "assistant3FeePercent"),
    number<PayerCsv>("4º auxiliar (%)", "assistant4FeePercent"),
    number<PayerCsv>("Múltiplos mesma via (%)", "multipleSameRoutePercent"),
    number<PayerCsv>("Múltiplos outra via (%)", "multipleOtherRoutePercent"),
    number<PayerCsv>("Urgência (%)", "urgencySurchargePercent"),
    text<PayerCsv>("Edição CBHPM", "cbhpmEdition"),
    labelled<PayerCsv>("Faixa CBHPM", "cbhpmBand", CBHPM_BAND_LABELS),
    active<PayerCsv>(),
    text<PayerCsv>("Observações", "notes"),
  ],
  hospitals: [
    text<HospitalCsv>("Nome", "name"),
    labelled<HospitalCsv>("Tipo", "type", HOSPITAL_TYPE_LABELS),
    text<HospitalCsv>("CNPJ", "cnpj", formatCnpj),
    text<HospitalCsv>("CNES", "cnes"),
    text<HospitalCsv>("Endereço", "address"),
    text<HospitalCsv>("Cidade", "city"),
    text<HospitalCsv>("UF", "state"),
    text<HospitalCsv>("CEP", "postalCode"),
    text<HospitalCsv>("E-mail", "contactEmail"),
    text<HospitalCsv>("Telefone", "contactPhone", formatPhone),
    text<HospitalCsv>("Acreditação", "accreditation"),
    active<HospitalCsv>(),
    text<HospitalCsv>("Observações", "notes"),
  ],
  codes: [
    labelled<CodeCsv>("Tipo", "type", MEDICAL_CODE_TYPE_LABELS),
    text<CodeCsv>("Código", "code"),
    text<CodeCsv>("Descrição", "description"),
    text<CodeCsv>("Categoria", "category"),
    text<CodeCsv>("Porte", "porte"),
    number<CodeCsv>("Auxiliares", "assistantsCount"),
    number<CodeCsv>("Porte anestésico", "anestheticPorte"),
    { header: "Valor (R$)", field: "priceCents", value: (row: CodeCsv) => (row.priceCents === null ? null : row.priceCents / 100) } as Column<CodeCsv>,
    active<CodeCsv>(),
  ],
  suppliers: [
    text<SupplierCsv>("Nome", "name"),
    labelled<SupplierCsv>("Tipo", "type", SUPPLIER_TYPE_LABELS),
    text<SupplierCsv>("CNPJ", "cnpj", formatCnpj),
    text<SupplierCsv>("E-mail", "contactEmail"),
    text<SupplierCsv>("Telefone", "contactPhone", formatPhone),
    text<SupplierCsv>("Endereço", "address"),
    number<SupplierCsv>("Prazo de pagamento (dias)", "paymentTermsDays"),
    number<SupplierCsv>("Avaliação", "qualityRating"),
    active<SupplierCsv>(),
    text<SupplierCsv>("Observações", "notes"),
  ],
} satisfies Record<MasterDataTab, Column<never>[]>;

const SCHEMAS: Record<MasterDataTab, z.ZodType<Record<string, unknown>, Record<string, unknown>>> = {
  payers: payerSchema as never,
  hospitals: hospitalSchema as never,
  codes: medicalCodeSchema as never,
  suppliers: supplierSchema as never,
};

const CREATE: Record<MasterDataTab, (userId: number, input: never) => unknown> = {
  payers: createPayer,
  hospitals: createHospital,
  codes: createMedicalCode,
  suppliers: createSupplier,
};

/** At most this many lines per file: an import is a few hundred rows, and it runs in one transaction. */
export const MAX_IMPORT_LINES = 5_000;

export interface ImportLineError {
  line: number;
  messages: string[];
}

export interface ImportCheck {
  /** Lines read (without the header). */
  count: number;
  errors: ImportLineError[];
  /** The first lines as they will be saved, for the preview. */
  preview: Array<Record<string, string>>;
  headers: string[];
}

const TRUE_WORDS = new Set(["ativo", "sim", "s", "1", "true", "verdadeiro", "x"]);

/** An exported cell back to what was typed: the formula guard's apostrophe removed. */
function unguard(cell: string) {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

function cellToField(column: Column<never>, cell: string): string {
  const value = unguard(cell).trim();
  if (column.boolean) return TRUE_WORDS.has(normalizeSearch(value)) ? "on" : "";
  if (column.labels && value) {
    const wanted = normalizeSearch(value);
    const match = Object.entries(column.labels).find(([stored, label]) => normalizeSearch(label) === wanted || stored === value);
    return match ? match[0] : value;
  }
  return value;
}

interface ParsedLine {
  line: number;
  input: Record<string, unknown> | null;
  messages: string[];
  cells: Record<string, string>;
}

/** Reads and validates every line of the file (nothing is written). */
function parseLines(tab: MasterDataTab, csv: string): { lines: ParsedLine[]; headers: string[]; fatal?: string } {
  const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ""), { skipEmptyLines: "greedy", delimitersToGuess: [";", ",", "\t"] });
  const [headerRow, ...rows] = parsed.data;
  if (!headerRow || rows.length === 0) return { lines: [], headers: [], fatal: "O arquivo não tem linhas para importar (a primeira linha deve ser o cabeçalho)." };
  if (rows.length > MAX_IMPORT_LINES) return { lines: [], headers: [], fatal: `O arquivo tem ${rows.length} linhas; importe no máximo ${MAX_IMPORT_LINES} por vez.` };
  const columns: Column<never>[] = CSV_COLUMNS[tab];
  const byHeader = new Map(columns.map((column) => [normalizeSearch(column.header), column]));
  const mapped = headerRow.map((header) => byHeader.get(normalizeSearch(header)) ?? null);
  const required = tab === "codes" ? ["Tipo", "Código", "Descrição"] : ["Nome"];
  const missing = required.filter((header) => !mapped.some((column) => column?.header === header));
  if (missing.length) return { lines: [], headers: [], fatal: `Falta a coluna ${missing.join(", ")} no cabeçalho.` };
  const headers = mapped.filter((column): column is Column<never> => column !== null).map((column) => column.header);

  const lines = rows.map((row, index): ParsedLine => {
    const fields: Record<string, string> = {};
    const cells: Record<string, string> = {};
    mapped.forEach((column, i) => {
      if (!column) return;
      cells[column.header] = row[i] ?? "";
      fields[column.field] = cellToField(column, row[i] ?? "");
    });
    // Without a status column a line is imported as active.
    if (!mapped.some((column) => column?.boolean)) fields.active = "on";
    const result = SCHEMAS[tab].safeParse(fields);
    const messages = result.success
      ? []
      : result.error.issues.map((issue) => {
          const column = columns.find((c) => c.field === issue.path[0]);
          return column ? `${column.header}: ${issue.message}` : issue.message;
        });
    return { line: index + 2, input: result.success ? result.data : null, messages, cells };
  });
  return { lines, headers };
}

/** Lines that repeat a CNPJ (or, for codes, a type and code) of an earlier line of the same file. */
function markRepeats(tab: MasterDataTab, lines: ParsedLine[]) {
  const seen = new Map<string, number>();
  for (const line of lines) {
    if (!line.input) continue;
    const key = tab === "codes" ? `${line.input.type}:${line.input.code}` : (line.input.cnpj as string | null);
    if (!key) continue;
    const first = seen.get(key);
    if (first) line.messages.push(`${tab === "codes" ? "Código" : "CNPJ"} repetido (já está na linha ${first})`);
    else seen.set(key, line.line);
  }
}

function check(tab: MasterDataTab, csv: string): { result: ImportCheck; lines: ParsedLine[] } {
  const { lines, headers, fatal } = parseLines(tab, csv);
  if (fatal) return { result: { count: 0, errors: [{ line: 1, messages: [fatal] }], preview: [], headers }, lines };
  markRepeats(tab, lines);
  return { result: summary(lines, headers), lines };
}

function summary(lines: ParsedLine[], headers: string[]): ImportCheck {
  return {
    count: lines.length,
    errors: lines.filter((line) => line.messages.length).map(({ line, messages }) => ({ line, messages })),
    preview: lines.slice(0, 20).map((line) => line.cells),
    headers,
  };
}

/**
 * Tries the whole file inside one transaction: each line is created through its model (CNPJ and
 * code uniqueness against the database included). With any error nothing is kept; with
 * `apply` false (the preview) nothing is kept either.
 */
export function importCsv(tab: MasterDataTab, userId: number, csv: string, { apply }: { apply: boolean }): ImportCheck & { applied: boolean } {
  const { result, lines } = check(tab, csv);
  if (result.errors.length) return { ...result, applied: false };
  const rollback = new Error("preview");
  try {
    db.transaction(() => {
      for (const line of lines) {
        try {
          CREATE[tab](userId, line.input as never);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          line.messages.push(error.message);
        }
      }
      if (lines.some((line) => line.messages.length) || !apply) throw rollback;
    });
  } catch (error) {
    if (error !== rollback) throw error;
    return { ...summary(lines, result.headers), applied: false };
  }
  return { ...result, applied: true };
}
