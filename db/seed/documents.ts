import type { Random } from "./random";

/**
 * Generators of valid Brazilian documents for demo data (check digits computed the way the
 * Receita Federal does; `app/lib/documents.ts` validates them). Output is bare digits, the stored form.
 */

function cpfCheckDigit(digits: number[]): number {
  const length = digits.length;
  let sum = 0;
  for (let i = 0; i < length; i++) sum += digits[i] * (length + 1 - i);
  return ((sum * 10) % 11) % 10;
}

/** A valid CPF (11 digits), never all digits equal. */
export function generateCpf(random: Random): string {
  for (;;) {
    const base = Array.from({ length: 9 }, () => random.int(0, 9));
    if (base.every((d) => d === base[0])) continue;
    const first = cpfCheckDigit(base);
    const second = cpfCheckDigit([...base, first]);
    return [...base, first, second].join("");
  }
}

function cnpjCheckDigit(digits: number[]): number {
  const length = digits.length;
  let sum = 0;
  for (let i = 0; i < length; i++) sum += digits[i] * (((length - 1 - i) % 8) + 2);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** A valid numeric CNPJ (14 digits) of a head office ('0001' branch). */
export function generateCnpj(random: Random): string {
  for (;;) {
    const base = [...Array.from({ length: 8 }, () => random.int(0, 9)), 0, 0, 0, 1];
    if (base.slice(0, 8).every((d) => d === base[0])) continue;
    const first = cnpjCheckDigit(base);
    const second = cnpjCheckDigit([...base, first]);
    return [...base, first, second].join("");
  }
}

/** Bare digits of a mobile phone in the given area code: '11987654321'. */
export function generateMobile(random: Random, areaCode = "11"): string {
  return `${areaCode}9${random.int(6, 9)}${random.digits(7)}`;
}

/** Bare digits of a landline: '1132145678'. */
export function generateLandline(random: Random, areaCode = "11"): string {
  return `${areaCode}${random.int(2, 5)}${random.digits(7)}`;
}
