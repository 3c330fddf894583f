import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { Field, FormErrors } from "~/components/form-field";
import type { LastResult } from "~/components/surgery-fees/fee-forms";
import { formatBRL } from "~/lib/money";
import { feeOverrideSchema } from "~/validation/surgery-fees";

/** `?ajustar=LINE`: the amount to pay instead of the computed one, and why. */
export function OverrideDialog({
  line,
  closeTo,
  lastResult,
}: {
  line: { id: number; doctorName: string; amountCents: number; computedCents: number | null };
  closeTo: string;
  lastResult: LastResult;
}) {
  const [form, fields] = useForm({
    id: `fee-override-${line.id}`,
    lastResult,
    defaultValue: { lineId: String(line.id), amount: (line.amountCents / 100).toFixed(2).replace(".", ",") },
    constraint: getZodConstraint(feeOverrideSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: feeOverrideSchema }),
    shouldValidate: "onBlur",
  });
  return (
    <UrlDialog
      title="Ajustar honorário"
      description={`${line.doctorName}: calculado ${line.computedCents === null ? "sem memória de cálculo" : formatBRL(line.computedCents)}. O ajuste fica registrado com o motivo.`}
      closeTo={closeTo}
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value="override-line" />
        <input type="hidden" name="lineId" value={line.id} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field meta={fields.amount} label="Valor a pagar (R$)" inputMode="decimal" autoComplete="off" />
        <Field meta={fields.reason} label="Motivo do ajuste" autoComplete="off" placeholder="Ex.: valor acordado com o convênio" />
        <FormDialogFooter closeTo={closeTo} submitLabel="Salvar ajuste" />
      </Form>
    </UrlDialog>
  );
}
