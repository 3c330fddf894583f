/**
 * Brazilian documents and phone numbers. Browser-safe.
 *
 * Stored forms are bare: CPF as 11 digits, CNPJ as 14 characters, phone as 10 or 11 digits.
 * The `format*` functions add the punctuation for display and return the input unchanged
 * (trimmed) when it does not have the expected shape, so odd legacy data is still shown.
 */
import { cnpj as cnpjValidator } from "cpf-cnpj-validator";

/** Every digit of the text, nothing else ('123.456.789-09' → '12345678909'); '' for null. */
export function onlyDigits(value: string | null | undefined): string {
  return value ? value.replace(/\D/g, "") : "";
}

/** Only digits and the usual punctuation may appear in a typed document or phone number. */
const DOCUMENT_CHARS = /^[\d.\-/\s]*$/;

/** The 11 digits of a CPF typed with or without punctuation, or null when it has other text. */
export function normalizeCpf(value: string | null | undefined): string | null {
  if (!value || !DOCUMENT_CHARS.test(value)) return null;
  const digits = onlyDigits(value);
  return digits.length === 11 ? digits : null;
}

/** Checks length, the two check digits, and rejects repeated digits such as 111.111.111-11. */
export function isValidCpf(value: string | null | undefined): boolean {
  const cpf = normalizeCpf(value);
  if (!cpf || /^(\d)\1{10}$/.test(cpf)) return false;
  const digits = cpf.split("").map(Number);
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += digits[i] * (length + 1 - i);
    const check = ((sum * 10) % 11) % 10;
    if (check !== digits[length]) return false;
  }
  return true;
}

/** '000.000.000-00' when the value has 11 digits; otherwise the trimmed input; '' when missing. */
export function formatCpf(value: string | null | undefined): string {
  if (!value) return "";
  const digits = onlyDigits(value);
  if (digits.length !== 11 || !DOCUMENT_CHARS.test(value)) return value.trim();
  return `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
}

/**
 * The 14 characters of a CNPJ typed with or without punctuation, upper-cased, or null.
 * Besides the numeric form this accepts the alphanumeric CNPJ the Receita Federal issues from
 * July 2026 (letters in the first 12 positions, two numeric check digits).
 */
export function normalizeCnpj(value: string | null | undefined): string | null {
  if (!value || !/^[\dA-Za-z.\-/\s]*$/.test(value)) return null;
  const cnpj = value.replace(/[.\-/\s]/g, "").toUpperCase();
  return /^[\dA-Z]{12}\d{2}$/.test(cnpj) ? cnpj : null;
}

/**
 * Checks the two check digits (module 11; each character counts as its ASCII code minus 48, so the
 * alphanumeric CNPJ of IN RFB 2.229/2024 is covered) and rejects repeated digits, through
 * `cpf-cnpj-validator`; the shape (14 characters, punctuation only where it belongs) is ours.
 */
export function isValidCnpj(value: string | null | undefined): boolean {
  const cnpj = normalizeCnpj(value);
  return cnpj !== null && cnpjValidator.isValid(cnpj, true);
}

/** '00.000.000/0000-00' when the value has the 14 characters of a CNPJ; otherwise the trimmed input. */
export function formatCnpj(value: string | null | undefined): string {
  if (!value) return "";
  const cnpj = normalizeCnpj(value);
  if (!cnpj) return value.trim();
  return `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
}

/**
 * The 10 or 11 digits of a Brazilian phone number (area code + number), or null.
 * A leading country code 55 is dropped ('+55 11 98765-4321' → '11987654321'). Mobile numbers
 * have 11 digits and start with 9 after the area code; landlines have 10.
 */
export function normalizePhone(value: string | null | undefined): string | null {
  if (!value || !/^[\d\s()+.\-]*$/.test(value)) return null;
  let digits = onlyDigits(value);
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith("55")) digits = digits.slice(2);
  if (digits.length !== 10 && digits.length !== 11) return null;
  // Area codes run from 11 to 99; neither digit is 0.
  if (!/^[1-9][1-9]/.test(digits)) return null;
  if (digits.length === 11 && digits[2] !== "9") return null;
  return digits;
}

/** '(11) 98765-4321' or '(11) 3456-7890'; other values come back trimmed; '' when missing. */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return "";
  const digits = normalizePhone(value);
  if (!digits) return value.trim();
  const area = digits.slice(0, 2);
  const number = digits.slice(2);
  const split = number.length - 4;
  return `(${area}) ${number.slice(0, split)}-${number.slice(split)}`;
}

/** The 27 federative units (26 states and the Distrito Federal), alphabetical by code. */
export const BRAZIL_UFS = [
  "AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA",
  "PB", "PE", "PI", "PR", "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO",
] as const;

export type BrazilUf = (typeof BRAZIL_UFS)[number];

/** True for one of the 27 UF codes, exactly as listed (upper case). */
export function isBrazilUf(value: string | null | undefined): value is BrazilUf {
  return typeof value === "string" && (BRAZIL_UFS as readonly string[]).includes(value);
}

/** The CEP typed with or without its hyphen ('01310100', '01310-100', '01.310-100') as '01310-100', or null. */
export function normalizeCep(value: string | null | undefined): string | null {
  if (!value || !/^[\d.\-\s]*$/.test(value)) return null;
  const digits = onlyDigits(value);
  return digits.length === 8 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : null;
}

/** Exactly `length` digits once spaces, dots and hyphens are removed (CNES: 7, registro ANS: 6), or null. */
export function normalizeDigits(value: string | null | undefined, length: number): string | null {
  if (!value || !/^[\d.\-\s/]*$/.test(value)) return null;
  const digits = onlyDigits(value);
  return digits.length === length ? digits : null;
}

/** 0.15 → '15%' (SPEC §9: commission shown as a whole percentage). */
export function formatCommission(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** 'CRM/SP 123456' when the UF is known, else the bare number. */
export function formatCrm(crm: string, uf: string | null | undefined): string {
  return uf ? `CRM/${uf} ${crm}` : crm;
}
