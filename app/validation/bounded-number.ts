import { z } from "zod";

/**
 * A number typed in a form ('60', '4,5', '0.15') within bounds and on a step: the percentages,
 * ratings, terms and counts of Cadastros, SOPs and referrers. Browser-safe.
 */
export interface BoundedNumberOptions {
  min: number;
  max: number;
  /** 1 for whole numbers, 0.1 for a rating, 0.01 for a commission. */
  step: number;
  /** The value of an empty field; without one an empty field reports `messages.required`. */
  fallback?: number | null;
  messages: { invalid: string; min?: string; max?: string; step?: string; required?: string };
}

const decimals = (step: number) => Math.max(0, -Math.floor(Math.log10(step) + 1e-9));

export function boundedNumber<Fallback extends number | null | undefined = undefined>(
  options: BoundedNumberOptions & { fallback?: Fallback },
): z.ZodType<Fallback extends null ? number | null : number, string | number | null | undefined> {
  const { min, max, step, fallback, messages } = options;
  const places = decimals(step);
  return z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value, ctx) => {
      const fail = (message: string) => {
        ctx.issues.push({ code: "custom", message, input: value });
        return z.NEVER;
      };
      const text = typeof value === "number" ? String(value) : (value ?? "").trim().replace(",", ".");
      if (text === "") return fallback === undefined ? fail(messages.required ?? messages.invalid) : fallback;
      if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text)) return fail(messages.invalid);
      const number = Number(text);
      if (!Number.isFinite(number)) return fail(messages.invalid);
      if (number < min) return fail(messages.min ?? messages.invalid);
      if (number > max) return fail(messages.max ?? messages.invalid);
      const steps = Math.round(number / step);
      if (Math.abs(number / step - steps) > 1e-6) return fail(messages.step ?? messages.invalid);
      return Number((steps * step).toFixed(places));
    }) as never;
}

/** A whole percentage 0..100 with its default ('Informe um percentual entre 0 e 100'). */
export function wholePercent(fallback: number, label = "percentual") {
  const message = `Informe um ${label} inteiro entre 0 e 100`;
  return boundedNumber({ min: 0, max: 100, step: 1, fallback, messages: { invalid: message } });
}

/** A checkbox: 'on' (what the browser sends) or 'true' → true; absent → false. */
export const checkbox = () => z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean());
