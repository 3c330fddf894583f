import { z } from "zod";
import { RECEIVABLE_STATUSES } from "~/lib/enums";
import { MAX_CENTS } from "~/lib/money";
import { isoDate, optionalText, reaisToCents, requiredText } from "./common";

/**
 * The receivable forms of /financeiro/cirurgias-receber (shared by the dialogs and the action) and
 * the JSON body of PUT /api/financeiro/cirurgias-a-receber/{id}. ADR 0019.
 */

export const RECEIVABLE_FORM_MESSAGES = {
  tissCode: "Informe o código TISS da glosa (4 dígitos).",
  glosaReason: "Informe o motivo da glosa.",
  reopenReason: "Explique por que o faturamento está sendo desfeito.",
  status: "Status inválido.",
} as const;

const tissCode = z
  .string({ error: RECEIVABLE_FORM_MESSAGES.tissCode })
  .trim()
  .regex(/^\d{4}$/, RECEIVABLE_FORM_MESSAGES.tissCode);

/** 'Reabrir' (admins): why the billing is undone. */
export const reopenSchema = z.object({
  reason: requiredText(RECEIVABLE_FORM_MESSAGES.reopenReason, 500).refine((value) => value.length >= 5, RECEIVABLE_FORM_MESSAGES.reopenReason),
});

/**
 * Marking glosa: the TISS code and text, and the denied amount of each fee line (`feeLine[i]` with
 * `denied[i]` in reais), or `deniedTotal` when the surgery has no fee lines.
 */
export const glosaSchema = z.object({
  tissCode,
  reason: requiredText(RECEIVABLE_FORM_MESSAGES.glosaReason, 500),
  feeLine: z.preprocess((v) => (v == null ? [] : Array.isArray(v) ? v : [v]), z.array(z.coerce.number().int().positive()).max(100)),
  denied: z.preprocess((v) => (v == null ? [] : Array.isArray(v) ? v : [v]), z.array(reaisToCents({ required: false })).max(100)),
  deniedTotal: reaisToCents({ required: false }),
});
export type GlosaForm = z.infer<typeof glosaSchema>;

/**
 * Marking pago: the day and the amount received (empty: everything owed). Less than owed needs
 * the glosa of the difference (code and text).
 */
export const paymentSchema = z.object({
  paidOn: isoDate(),
  amount: reaisToCents({ required: false }),
  tissCode: z.preprocess((v) => (v === "" ? undefined : v), tissCode.optional()),
  glosaReason: optionalText(500),
});
export type PaymentForm = z.infer<typeof paymentSchema>;

/** The appeal (recurso) of a glosa: justification and the day it was sent. */
export const appealSchema = z.object({
  glosaId: z.coerce.number().int().positive(),
  justification: requiredText("Escreva a justificativa do recurso.", 4000),
  sentOn: isoDate(),
});

const cents = z.number().int().min(0).max(MAX_CENTS);

/** PUT body: `{ status }`, plus what a move to glosa or pago records (optional otherwise). */
export const receivableMoveBodySchema = z.object({
  status: z.enum(RECEIVABLE_STATUSES, { message: RECEIVABLE_FORM_MESSAGES.status }),
  paid_on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Data de pagamento inválida.").optional(),
  amount_cents: cents.optional(),
  glosa: z
    .object({
      tiss_code: tissCode,
      reason: z.string().trim().min(1, RECEIVABLE_FORM_MESSAGES.glosaReason).max(500),
      denied_cents: cents.optional(),
      lines: z.array(z.object({ fee_line_id: z.number().int().positive(), denied_cents: cents })).max(100).optional(),
    })
    .optional(),
});
export type ReceivableMoveBody = z.infer<typeof receivableMoveBodySchema>;

