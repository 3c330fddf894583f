import type { MedicalCodeType } from "./enums";

/**
 * How each kind of medical code is written. Browser-safe.
 * - CBHPM: 8 digits shown as '3.07.15.18-0'; its TUSS twin is the same 8 digits ('30715180').
 * - TUSS: 8 digits, bare.
 * - CID-10: a letter, two digits and an optional subcategory ('M51.1', 'G35').
 * - Own codes: any text up to 30 characters.
 */
export type CodeCheck = { ok: true; code: string } | { ok: false; message: string };

export function normalizeMedicalCode(type: MedicalCodeType, raw: string): CodeCheck {
  const text = raw.trim();
  if (type === "cbhpm" || type === "tuss") {
    if (!/^[\d.\-\s]+$/.test(text)) return { ok: false, message: `Código ${type.toUpperCase()} inválido: use os 8 dígitos` };
    const digits = text.replace(/\D/g, "");
    if (digits.length !== 8) return { ok: false, message: `Código ${type.toUpperCase()} inválido: use os 8 dígitos` };
    return { ok: true, code: type === "cbhpm" ? formatCbhpm(digits) : digits };
  }
  if (type === "icd10") {
    const code = text.toUpperCase().replace(/\s/g, "");
    const match = /^([A-Z]\d{2})\.?(\d{1,2})?$/.exec(code);
    if (!match) return { ok: false, message: "Código CID-10 inválido (ex.: M51.1)" };
    return { ok: true, code: match[2] ? `${match[1]}.${match[2]}` : match[1] };
  }
  return text ? { ok: true, code: text } : { ok: false, message: "Informe o código" };
}

/** '30715180' → '3.07.15.18-0'. */
export function formatCbhpm(digits: string): string {
  return `${digits[0]}.${digits.slice(1, 3)}.${digits.slice(3, 5)}.${digits.slice(5, 7)}-${digits[7]}`;
}

/** The code's twin in the other table: a CBHPM code's TUSS code and back (same 8 digits), else null. */
export function twinCode(type: string, code: string): { type: "cbhpm" | "tuss"; code: string } | null {
  const digits = code.replace(/\D/g, "");
  if (digits.length !== 8) return null;
  if (type === "cbhpm") return { type: "tuss", code: digits };
  if (type === "tuss") return { type: "cbhpm", code: formatCbhpm(digits) };
  return null;
}
