/**
 * CSV for Brazilian Excel. Browser-safe.
 *
 * Excel in pt-BR opens a file by double click correctly only with a UTF-8 BOM (for accents),
 * ';' between fields (',' is the decimal mark) and CRLF line ends.
 */

export type CsvCell = string | number | null | undefined;

const BOM = "\uFEFF";
/** Characters that make Excel or LibreOffice treat a cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[;"\r\n]/;

/**
 * Builds the whole file: BOM, header line, one line per row, each line ending in CRLF.
 *
 * Text cells that start with '=', '+', '-', '@', tab or CR get a leading apostrophe so they
 * cannot run as formulas; cells containing ';', '"', CR or LF are quoted with '"' doubled.
 * Numbers are written as numbers with a decimal comma (1234.5 → '1234,5', -3 → '-3') and are
 * never guarded, so pass amounts as numbers (`cents / 100`), not as preformatted text.
 * null, undefined and non-finite numbers become empty cells.
 */
export function toCsv(headers: string[], rows: ReadonlyArray<ReadonlyArray<CsvCell>>): string {
  const lines = [headers, ...rows].map((row) => row.map(csvCell).join(";"));
  return `${BOM}${lines.map((line) => `${line}\r\n`).join("")}`;
}

/** One cell as it appears in the file (guarded and quoted as `toCsv` describes). */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    return Number.isFinite(value) ? String(value).replace(".", ",") : "";
  }
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
