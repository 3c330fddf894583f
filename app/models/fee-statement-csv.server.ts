import Papa from "papaparse";
import { isValidIsoDate } from "~/lib/dates";
import { MAX_STATEMENT_LINES, STATEMENT_COLUMNS, type StatementField } from "~/lib/fee-statement";
import { parseReaisToCents } from "~/lib/money";
import { normalizeSearch } from "~/lib/search";
import { stripControlChars } from "~/lib/text";

/**
 * Reads a fee statement CSV (the columns of STATEMENT_COLUMNS) with papaparse, in the dialect
 * Brazilian Excel writes (';', decimal comma, dd/mm/yyyy, a UTF-8 BOM or Windows-1252 text) or a
 * plain ',' CSV. Every line is checked on its own; nothing here touches the database.
 */

export interface StatementLine {
  /** The line in the file (the header is line 1). */
  line: number;
  guide: string | null;
  patient: string;
  code: string;
  /** ISO YYYY-MM-DD. */
  date: string;
  amountCents: number;
  payer: string;
  paidOn: string | null;
  glosaCode: string | null;
  glosaReason: string | null;
}

export interface LineError {
  line: number;
  message: string;
}

export interface ParsedStatement {
  lines: StatementLine[];
  errors: LineError[];
  /** A problem with the file as a whole (no header, a missing column, too many lines). */
  fatal: string | null;
}

/** The file's bytes as text: UTF-8 (its BOM dropped), else Windows-1252, as older Excel saves it. */
export function decodeStatement(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder("windows-1252").decode(bytes);
  }
  return text.replace(/^\uFEFF/, "");
}

/** 'dd/mm/aaaa' (or 'dd-mm-aaaa', or ISO 'aaaa-mm-dd') → ISO, when it is a real day. */
export function parseStatementDate(raw: string): string | null {
  const text = raw.trim();
  let iso: string | null = null;
  const br = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (br) iso = `${br[3]}-${br[2].padStart(2, "0")}-${br[1].padStart(2, "0")}`;
  else if (/^\d{4}-\d{2}-\d{2}$/.test(text)) iso = text;
  return iso && isValidIsoDate(iso) ? iso : null;
}

const byName = new Map<string, StatementField>();
for (const column of STATEMENT_COLUMNS) {
  for (const name of [column.header, ...column.aliases]) byName.set(normalizeSearch(name), column.key);
}

const clean = (cell: string | undefined) => stripControlChars(cell ?? "", { singleLine: true }).trim();

export function parseStatement(text: string): ParsedStatement {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { delimitersToGuess: [";", ",", "\t"], skipEmptyLines: false });
  const rows = parsed.data;
  const headerIndex = rows.findIndex((row) => row.some((cell) => cell.trim() !== ""));
  if (headerIndex < 0) return { lines: [], errors: [], fatal: "O arquivo está vazio." };
  const fields = rows[headerIndex].map((header) => byName.get(normalizeSearch(header)) ?? null);
  const missing = STATEMENT_COLUMNS.filter((column) => column.required && !fields.includes(column.key)).map((column) => column.header);
  if (missing.length) {
    return { lines: [], errors: [], fatal: `Falta a coluna ${missing.join(", ")} no cabeçalho (a primeira linha do arquivo).` };
  }
  const body = rows.slice(headerIndex + 1).map((cells, i) => ({ cells, line: headerIndex + i + 2 }));
  const filled = body.filter(({ cells }) => cells.some((cell) => cell.trim() !== ""));
  if (!filled.length) return { lines: [], errors: [], fatal: "O arquivo não tem linhas de pagamento (só o cabeçalho)." };
  if (filled.length > MAX_STATEMENT_LINES) {
    return { lines: [], errors: [], fatal: `O arquivo tem ${filled.length} linhas; importe no máximo ${MAX_STATEMENT_LINES} por vez.` };
  }

  const lines: StatementLine[] = [];
  const errors: LineError[] = [];
  for (const { cells, line } of filled) {
    const value = (key: StatementField) => clean(cells[fields.indexOf(key)]);
    const problems: string[] = [];
    const patient = value("patient");
    const payer = value("payer");
    const code = value("code");
    if (!patient) problems.push("falta o paciente");
    if (!payer) problems.push("falta o pagador");
    if (!code) problems.push("falta o código do procedimento");
    const date = parseStatementDate(value("date"));
    if (!date) problems.push(`data '${value("date")}' inválida (use dd/mm/aaaa)`);
    const amount = parseReaisToCents(value("amount"));
    if (amount === null || amount === undefined || amount <= 0) problems.push(`valor '${value("amount")}' inválido (use 1.234,56)`);
    const paidOnRaw = fields.includes("paidOn") ? value("paidOn") : "";
    const paidOn = paidOnRaw ? parseStatementDate(paidOnRaw) : null;
    if (paidOnRaw && !paidOn) problems.push(`data do pagamento '${paidOnRaw}' inválida (use dd/mm/aaaa)`);
    const glosaCode = value("glosaCode") || null;
    const glosaReason = value("glosaReason") || null;
    if (glosaCode && !/^\d{4}$/.test(glosaCode)) problems.push(`código da glosa '${glosaCode}' inválido (4 dígitos)`);
    if (glosaCode && !glosaReason) problems.push("informe o motivo da glosa");
    if (problems.length) {
      errors.push({ line, message: capitalise(problems.join("; ")) + "." });
      continue;
    }
    lines.push({ line, guide: value("guide") || null, patient, code, date: date!, amountCents: amount!, payer, paidOn, glosaCode, glosaReason });
  }
  return { lines, errors, fatal: null };
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
