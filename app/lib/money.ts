/**
 * Money. Browser-safe.
 *
 * Amounts are integers of cents everywhere in code and in the database; they become BRL text
 * only for display (`formatBRL`) and come back from reais text only through `parseReaisToCents`,
 * which works on the digits as text so no float rounding can creep in.
 */

const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });

/** The largest amount we accept from a form: R$ 999.999.999.999,99 (well inside 2^53 cents). */
export const MAX_CENTS = 99_999_999_999_999;

/**
 * 'R$ 1.234,56' (pt-BR, negative as '-R$ 1.234,56'); '-' when missing or not a number.
 * The space after 'R$' is a plain space (Intl emits U+00A0) so text comparisons and CSV
 * cells are predictable.
 */
export function formatBRL(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return "-";
  return brl.format(Math.round(cents) / 100).replace(/\u00a0/g, " ");
}

/** Cents as a form input value in reais: 123456 → '1234,56', -5 → '-0,05'; '' when missing. */
export function centsToReaisInput(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return "";
  const whole = Math.round(cents);
  const abs = Math.abs(whole);
  const reais = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, "0");
  return `${whole < 0 ? "-" : ""}${reais},${rest}`;
}

const GROUPED_THOUSANDS = /^\d{1,3}(\.\d{3})+$/;
const PLAIN_DIGITS = /^\d+$/;
const DOT_DECIMAL = /^(\d+)\.(\d{1,2})$/;

/**
 * Reads an amount in reais typed by a person and returns integer cents.
 *
 * Accepts '1234,56', '1.234,56', 'R$ 1.234,56', '1234.56', '1234', ',5', '-10,00'. A comma is
 * the decimal mark; dots are thousands separators when they group digits by three ('1.234' is
 * R$ 1.234,00), otherwise a single dot followed by one or two digits is a decimal mark
 * ('1234.5', '1.50').
 *
 * Returns `null` for empty or blank input (the field was left empty) and `undefined` for
 * anything that is not an amount ('abc', '1,234', '1.2.3', more than two decimals, beyond
 * `MAX_CENTS`), so a zod schema can tell "missing" from "invalid". Never returns NaN.
 */
export function parseReaisToCents(input: string | null | undefined): number | null | undefined {
  if (input === null || input === undefined) return null;
  let text = input.replace(/[\s\u00a0\u202f]/g, "");
  if (text === "") return null;

  let negative = false;
  // The sign may come before or after the currency symbol: '-R$ 1,00' or 'R$ -1,00'.
  if (text.startsWith("-")) {
    negative = true;
    text = text.slice(1);
  }
  if (/^R\$/i.test(text)) text = text.slice(2);
  if (!negative && text.startsWith("-")) {
    negative = true;
    text = text.slice(1);
  }
  if (text === "") return undefined;

  let integerDigits: string;
  let fractionDigits: string;
  const commaParts = text.split(",");
  if (commaParts.length > 2) return undefined;
  if (commaParts.length === 2) {
    const [left, right] = commaParts;
    if (!/^\d{1,2}$/.test(right)) return undefined;
    if (left === "" || PLAIN_DIGITS.test(left)) integerDigits = left;
    else if (GROUPED_THOUSANDS.test(left)) integerDigits = left.replace(/\./g, "");
    else return undefined;
    fractionDigits = right;
  } else if (PLAIN_DIGITS.test(text)) {
    integerDigits = text;
    fractionDigits = "";
  } else if (GROUPED_THOUSANDS.test(text)) {
    integerDigits = text.replace(/\./g, "");
    fractionDigits = "";
  } else {
    const match = DOT_DECIMAL.exec(text);
    if (!match) return undefined;
    integerDigits = match[1];
    fractionDigits = match[2];
  }

  integerDigits = integerDigits.replace(/^0+(?=\d)/, "");
  // Length check first so Number() below only ever sees values that fit exactly.
  if (integerDigits.length > 12) return undefined;
  const cents = Number(integerDigits || "0") * 100 + Number(fractionDigits.padEnd(2, "0"));
  if (cents > MAX_CENTS) return undefined;
  return negative && cents !== 0 ? -cents : cents;
}

const percentFormats = new Map<number, Intl.NumberFormat>();

/**
 * A fraction as a pt-BR percentage: formatPercent(0.125) → '13%', formatPercent(0.125, 1) →
 * '12,5%'. This is the pt-BR form Intl produces (no space before '%'). '-' when missing.
 */
export function formatPercent(fraction: number | null | undefined, digits = 0): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return "-";
  let formatter = percentFormats.get(digits);
  if (!formatter) {
    formatter = new Intl.NumberFormat("pt-BR", {
      style: "percent",
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    percentFormats.set(digits, formatter);
  }
  return formatter.format(fraction).replace(/\u00a0/g, " ");
}
