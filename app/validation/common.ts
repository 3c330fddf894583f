/**
 * Field schemas shared by the form schemas (zod 4). Browser-safe.
 *
 * Form data arrives through Conform's `parseWithZod` (`@conform-to/zod/v4`), which turns an
 * empty field into `undefined` before these schemas see it; parsed directly (tests, JSON) the
 * same field is ''. Every helper treats undefined, null, '' and blank text alike: optional ones
 * give `null` (what the database column stores), required ones report their message.
 * Messages are Portuguese, for the person filling the form.
 */
import { z } from "./zod";
import { fromDateTimeLocalValue, isValidIsoDate } from "~/lib/dates";
import { isBrazilUf, isValidCnpj, isValidCpf, normalizeCnpj, normalizeCpf, normalizePhone } from "~/lib/documents";
import { formatBRL, MAX_CENTS, parseReaisToCents } from "~/lib/money";
import { stripControlChars } from "~/lib/text";

/** Default upper bound for single-line text fields. */
export const DEFAULT_TEXT_MAX = 255;

export const MESSAGES = {
  required: "Campo obrigatório",
  amountRequired: "Informe um valor",
  amountInvalid: "Valor inválido",
  cpfInvalid: "CPF inválido",
  cnpjInvalid: "CNPJ inválido",
  emailInvalid: "E-mail inválido",
  phoneInvalid: "Telefone inválido",
  ufInvalid: "UF inválida",
  dateRequired: "Informe a data",
  dateInvalid: "Data inválida",
  dateTimeRequired: "Informe a data e a hora",
  dateTimeInvalid: "Data e hora inválidas",
  tooLong: (max: number) => `Use no máximo ${max} caracteres`,
  amountMin: (minCents: number) => `O valor mínimo é ${formatBRL(minCents)}`,
  amountMax: (maxCents: number) => `O valor máximo é ${formatBRL(maxCents)}`,
} as const;

function fail(ctx: z.RefinementCtx, message: string, input: unknown): never {
  ctx.issues.push({ code: "custom", message, input });
  return z.NEVER;
}

function blankToNull(value: string | null | undefined): string | null {
  const trimmed = value == null ? "" : stripControlChars(value).trim();
  return trimmed ? trimmed : null;
}

/** A string schema whose type error (missing, null, not text) reads `message`. */
function requiredString(message: string, invalidMessage = message) {
  return z.string({ error: (issue) => (issue.input == null ? message : invalidMessage) });
}

/**
 * Text as a person meant it: control characters (a NUL, an escape byte) removed and the rest
 * trimmed, so a value made only of them counts as blank. `multiline` keeps line breaks and tabs.
 */
export function cleanText(value: string, { multiline = false }: { multiline?: boolean } = {}): string {
  return stripControlChars(value, { singleLine: !multiline }).trim();
}

// ---------------------------------------------------------------------------- text

/** Required text, trimmed; blank or missing reports `message`, longer than `max` reports the limit. */
export function requiredText(message: string = MESSAGES.required, max: number = DEFAULT_TEXT_MAX) {
  return requiredString(message)
    .trim()
    .min(1, message)
    .max(max, MESSAGES.tooLong(max))
    .transform((value, ctx) => cleanText(value) || fail(ctx, message, value));
}

/** Optional text, trimmed; blank or missing → null. `multiline` keeps line breaks (notes, histories). */
export function optionalText(max: number = DEFAULT_TEXT_MAX, { multiline = false }: { multiline?: boolean } = {}) {
  return z
    .string()
    .trim()
    .max(max, MESSAGES.tooLong(max))
    .nullish()
    .transform((value) => (value == null ? null : cleanText(value, { multiline }) || null));
}

// ---------------------------------------------------------------------------- documents and contacts

/** Optional CPF typed with or without punctuation → its 11 digits, or null; 'CPF inválido' otherwise. */
export function optionalCpf() {
  return z
    .string()
    .nullish()
    .transform((value, ctx) => {
      const text = blankToNull(value);
      if (text === null) return null;
      return isValidCpf(text) ? (normalizeCpf(text) as string) : fail(ctx, MESSAGES.cpfInvalid, value);
    });
}

/** Optional CNPJ → its 14 characters (digits, or the alphanumeric form), or null; 'CNPJ inválido'. */
export function optionalCnpj() {
  return z
    .string()
    .nullish()
    .transform((value, ctx) => {
      const text = blankToNull(value);
      if (text === null) return null;
      return isValidCnpj(text) ? (normalizeCnpj(text) as string) : fail(ctx, MESSAGES.cnpjInvalid, value);
    });
}

/** Optional e-mail, trimmed, or null; 'E-mail inválido' otherwise. */
export function optionalEmail() {
  return z
    .string()
    .nullish()
    .transform((value, ctx) => {
      const text = blankToNull(value);
      if (text === null) return null;
      return text.length <= 254 && z.regexes.email.test(text) ? text : fail(ctx, MESSAGES.emailInvalid, value);
    });
}

/** Optional Brazilian phone → 10 or 11 digits (country code 55 dropped), or null; 'Telefone inválido'. */
export function optionalPhone() {
  return z
    .string()
    .nullish()
    .transform((value, ctx) => {
      const text = blankToNull(value);
      if (text === null) return null;
      return normalizePhone(text) ?? fail(ctx, MESSAGES.phoneInvalid, value);
    });
}

/** Optional state code (any case) → upper-case UF, or null; 'UF inválida'. */
export function optionalUf() {
  return z
    .string()
    .nullish()
    .transform((value, ctx) => {
      const text = blankToNull(value)?.toUpperCase() ?? null;
      if (text === null) return null;
      return isBrazilUf(text) ? text : fail(ctx, MESSAGES.ufInvalid, value);
    });
}

// ---------------------------------------------------------------------------- money

export interface ReaisOptions {
  /** Default true. When false an empty field gives null. */
  required?: boolean;
  /** Smallest accepted amount in cents; default 0 (no negative amounts). */
  min?: number;
  /** Largest accepted amount in cents; default MAX_CENTS. */
  max?: number;
}

type RequiredCents = z.ZodType<number, string | null | undefined>;
type OptionalCents = z.ZodType<number | null, string | null | undefined>;

/**
 * Reais typed in a form ('1.234,56', 'R$ 1.234,56', '1234.56') → integer cents, parsed on the
 * digits (see `parseReaisToCents`). Empty: 'Informe um valor' when required, else null.
 * Not an amount: 'Valor inválido'. Out of bounds: 'O valor mínimo é R$ 0,00' and the like.
 */
export function reaisToCents(options?: ReaisOptions & { required?: true }): RequiredCents;
export function reaisToCents(options: ReaisOptions & { required: false }): OptionalCents;
export function reaisToCents(options?: ReaisOptions): RequiredCents | OptionalCents;
export function reaisToCents({ required = true, min = 0, max = MAX_CENTS }: ReaisOptions = {}): OptionalCents {
  return z
    .string({ error: MESSAGES.amountInvalid })
    .nullish()
    .transform((value, ctx) => {
      const cents = parseReaisToCents(value);
      if (cents === null) return required ? fail(ctx, MESSAGES.amountRequired, value) : null;
      if (cents === undefined) return fail(ctx, MESSAGES.amountInvalid, value);
      if (cents < min) return fail(ctx, MESSAGES.amountMin(min), value);
      if (cents > max) return fail(ctx, MESSAGES.amountMax(max), value);
      return cents;
    });
}

// ---------------------------------------------------------------------------- dates

/**
 * A `<input type="datetime-local">` value read as São Paulo wall time → the UTC instant (Date).
 * Deliberately not `z.date()`: Conform would coerce it with `new Date(text)`, i.e. in the
 * server's time zone.
 */
export function clinicDateTime(
  messages: { required?: string; invalid?: string } = {},
): z.ZodType<Date, string | null | undefined> {
  const required = messages.required ?? MESSAGES.dateTimeRequired;
  const invalid = messages.invalid ?? MESSAGES.dateTimeInvalid;
  return z
    .string({ error: invalid })
    .nullish()
    .transform((value, ctx) => {
      if (blankToNull(value) === null) return fail(ctx, required, value);
      return fromDateTimeLocalValue(value) ?? fail(ctx, invalid, value);
    });
}

/** Like `clinicDateTime` but empty → null. */
export function optionalClinicDateTime(
  messages: { invalid?: string } = {},
): z.ZodType<Date | null, string | null | undefined> {
  const invalid = messages.invalid ?? MESSAGES.dateTimeInvalid;
  return z
    .string({ error: invalid })
    .nullish()
    .transform((value, ctx) => {
      if (blankToNull(value) === null) return null;
      return fromDateTimeLocalValue(value) ?? fail(ctx, invalid, value);
    });
}

/** 'YYYY-MM-DD' (what `<input type="date">` sends) or 'dd/MM/yyyy' typed by hand → 'YYYY-MM-DD'. */
function toIsoDate(text: string): string | null {
  const br = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  const iso = br ? `${br[3]}-${br[2]}-${br[1]}` : text;
  return isValidIsoDate(iso) ? iso : null;
}

/** A real calendar date → 'YYYY-MM-DD' (no time zone involved); 'Informe a data' / 'Data inválida'. */
export function isoDate(
  messages: { required?: string; invalid?: string } = {},
): z.ZodType<string, string | null | undefined> {
  const required = messages.required ?? MESSAGES.dateRequired;
  const invalid = messages.invalid ?? MESSAGES.dateInvalid;
  return z
    .string({ error: invalid })
    .nullish()
    .transform((value, ctx) => {
      const text = blankToNull(value);
      if (text === null) return fail(ctx, required, value);
      return toIsoDate(text) ?? fail(ctx, invalid, value);
    });
}

/** Like `isoDate` but empty → null (e.g. a task without a due date). */
export function optionalIsoDate(
  messages: { invalid?: string } = {},
): z.ZodType<string | null, string | null | undefined> {
  const invalid = messages.invalid ?? MESSAGES.dateInvalid;
  return z
    .string({ error: invalid })
    .nullish()
    .transform((value, ctx) => {
      const text = blankToNull(value);
      if (text === null) return null;
      return toIsoDate(text) ?? fail(ctx, invalid, value);
    });
}
