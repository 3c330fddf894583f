import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { DefaultSubmitButton, PickerRoundTripFields, SurgeryPicker, pickedId } from "~/components/entity-picker";
import { Field, FormErrors, SelectField } from "~/components/form-field";
import { TRANSACTION_CATEGORIES, TRANSACTION_TYPES, TRANSACTION_TYPE_LABELS, enumOptions } from "~/lib/enums";
import { filterParams } from "~/lib/list-params";
import { TRANSACTION_LIST } from "~/lib/lists";
import { transactionSchema } from "~/validation/transaction";
import type { Route } from "../routes/+types/financial";

type LoaderData = Route.ComponentProps["loaderData"];

const TYPE_OPTIONS = enumOptions(TRANSACTION_TYPES, TRANSACTION_TYPE_LABELS);
/** Everything of the list's URL state, kept through the surgery picker's GET round trip. */
const LIST_PARAMS = ["page", "sort", "dir", "after", "before", ...filterParams(TRANSACTION_LIST)];
const CATEGORY_SUGGESTIONS = [...new Set([...TRANSACTION_CATEGORIES.receita, ...TRANSACTION_CATEGORIES.despesa])];

/** The create/edit dialog of /financial: type, amount in reais, category, description, date and an optional surgery. */
export function TransactionDialog({
  transaction,
  form: data,
  closeTo,
  lastResult,
}: {
  transaction: LoaderData["editing"];
  form: NonNullable<LoaderData["form"]>;
  closeTo: string;
  lastResult: NonNullable<Route.ComponentProps["actionData"]>["result"];
}) {
  const [form, fields] = useForm({
    id: transaction ? `transaction-${transaction.id}` : "transaction-new",
    lastResult,
    defaultValue: data.defaults,
    constraint: getZodConstraint(transactionSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: transactionSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <UrlDialog title={transaction ? "Editar transação" : "Nova transação"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <DefaultSubmitButton />
        <input type="hidden" name="intent" value={transaction ? "update" : "create"} />
        {transaction ? <input type="hidden" name="id" value={transaction.id} /> : null}
        <PickerRoundTripFields editId={transaction?.id} keep={LIST_PARAMS} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <SelectField meta={fields.transactionType} label="Tipo" options={TYPE_OPTIONS} placeholder="Escolha o tipo" />
          <Field meta={fields.amount} label="Valor (R$)" inputMode="decimal" autoComplete="off" placeholder="0,00" />
          <Field meta={fields.transactionCategory} label="Categoria" list="transaction-categories" autoComplete="off" placeholder="Ex.: Cirurgias, Aluguel" />
          <datalist id="transaction-categories">
            {CATEGORY_SUGGESTIONS.map((category) => (
              <option key={category} value={category} />
            ))}
          </datalist>
          <Field meta={fields.transactionDate} label="Data" type="date" />
          <Field meta={fields.description} label="Descrição" className="sm:col-span-2" autoComplete="off" />
          <div className="sm:col-span-2">
            <SurgeryPicker
              label="Cirurgia (opcional)"
              options={data.surgeryOptions}
              defaultValue={pickedId(fields.surgeryId.initialValue, data.defaults.surgeryId)}
              searchDefault={data.surgeryQ}
              searchPlaceholder="Paciente, cirurgia ou guia..."
              errors={fields.surgeryId.errors}
              errorId={fields.surgeryId.errorId}
            />
          </div>
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel={transaction ? "Salvar alterações" : "Criar transação"} />
      </Form>
    </UrlDialog>
  );
}
