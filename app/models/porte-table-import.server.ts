import { and, eq } from "drizzle-orm";
import Papa from "papaparse";
import { referenceFeeSchedules } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { db } from "~/.server/db";
import type { CbhpmBand } from "~/lib/enums";
import { PORTES, porteTableVersion } from "~/lib/fees/porte";
import { formatBRL, parseReaisToCents } from "~/lib/money";

/**
 * Import of a CBHPM porte table (one edition, one band) from CSV: columns 'Porte' and 'Valor (R$)'
 * (header first; ';', ',' or tab). Every line is checked; one bad line imports nothing and is
 * named. Applying replaces that edition and band's table in one transaction (ADR 0018).
 */
export const PORTE_CSV_HEADERS = ["Porte", "Valor (R$)"] as const;

export interface PorteImportCheck {
  rows: Array<{ porte: string; valueCents: number; value: string }>;
  errors: Array<{ line: number; messages: string[] }>;
  missing: string[];
  applied: boolean;
}

const normalizeHeader = (header: string) => header.trim().toLowerCase().replace(/\s+/g, " ");

export function checkPorteCsv(csv: string): Omit<PorteImportCheck, "applied"> {
  const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ""), { skipEmptyLines: "greedy", delimitersToGuess: [";", "\t", ","] });
  const [header = [], ...lines] = parsed.data;
  const errors: PorteImportCheck["errors"] = [];
  const porteAt = header.findIndex((h) => normalizeHeader(h) === "porte");
  const valueAt = header.findIndex((h) => ["valor (r$)", "valor"].includes(normalizeHeader(h)));
  if (porteAt < 0 || valueAt < 0) return { rows: [], errors: [{ line: 1, messages: ["O cabeçalho deve ter as colunas 'Porte' e 'Valor (R$)'."] }], missing: [] };
  if (lines.length > PORTES.length) return { rows: [], errors: [{ line: 1, messages: [`Uma tabela de portes tem no máximo ${PORTES.length} linhas.`] }], missing: [] };
  const rows: PorteImportCheck["rows"] = [];
  const seen = new Map<string, number>();
  lines.forEach((cells, i) => {
    const line = i + 2;
    const messages: string[] = [];
    const porte = (cells[porteAt] ?? "").trim().toUpperCase();
    const cents = parseReaisToCents(cells[valueAt] ?? "");
    if (!PORTES.includes(porte)) messages.push(`porte '${porte}' inválido (use 1A a 14C)`);
    else if (seen.has(porte)) messages.push(`porte ${porte} repetido (já na linha ${seen.get(porte)})`);
    if (typeof cents !== "number" || cents <= 0) messages.push("valor inválido (use reais, ex.: 1.854,75)");
    if (messages.length) errors.push({ line, messages });
    else {
      seen.set(porte, line);
      rows.push({ porte, valueCents: cents as number, value: formatBRL(cents as number) });
    }
  });
  if (!lines.length) errors.push({ line: 2, messages: ["O arquivo não tem linhas de portes."] });
  return { rows, errors, missing: PORTES.filter((porte) => !seen.has(porte)) };
}

export function importPorteTable(userId: number, edition: number, band: CbhpmBand, csv: string, { apply }: { apply: boolean }): PorteImportCheck {
  const check = checkPorteCsv(csv);
  if (check.errors.length || !apply) return { ...check, applied: false };
  const version = porteTableVersion(band);
  db.transaction((tx) => {
    const where = and(eq(referenceFeeSchedules.kind, "CBHPM"), eq(referenceFeeSchedules.year, edition), eq(referenceFeeSchedules.version, version));
    const replaced = tx.delete(referenceFeeSchedules).where(where).run().changes;
    tx.insert(referenceFeeSchedules)
      .values(check.rows.map((row) => ({ kind: "CBHPM" as const, year: edition, version, code: row.porte, description: `Porte ${row.porte}`, baseValueCents: row.valueCents })))
      .run();
    recordAudit(tx, { userId, action: "create", entity: "porte_table", entityId: `${edition}:${band}`, changes: { edition, band, portes: check.rows.length, replaced } });
  });
  return { ...check, applied: true };
}
